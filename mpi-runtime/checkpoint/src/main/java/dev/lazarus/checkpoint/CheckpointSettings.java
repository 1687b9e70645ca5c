package dev.lazarus.checkpoint;

import dev.lazarus.store.JobId;
import dev.lazarus.store.dirty.BlockHashes;
import dev.lazarus.store.level.l2.L2Scheme;
import dev.lazarus.store.level.xor.XorSetLayout;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * Settings of the checkpoint client, each in one place: system property, environment variable, default. Precedence:
 * system property (set by the launcher from the command line), then environment, then default. {@link #conclude}
 * validates everything before any file is touched.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>property</th><th>environment</th><th>default</th></tr>
 *   <tr><td>lazarus.job.id</td><td>LAZARUS_JOB_ID</td><td>the application name</td></tr>
 *   <tr><td>lazarus.ckpt.every</td><td>LAZARUS_CKPT_EVERY</td><td>0: no checkpoints; N: after every Nth main-loop
 *       iteration of a {@code RecomputingRun}</td></tr>
 *   <tr><td>lazarus.ckpt.dir</td><td>LAZARUS_CKPT_DIR</td><td>/dev/shm/lazarus/ckpt (L1, node-local; {@code %h}
 *       stands for the node name)</td></tr>
 *   <tr><td>lazarus.ckpt.pfs.dir</td><td>LAZARUS_CKPT_PFS_DIR</td><td>lazarus-ckpt in the working directory
 *       (L3); {@code off} disables L3</td></tr>
 *   <tr><td>lazarus.ckpt.pfs.every</td><td>LAZARUS_CKPT_PFS_EVERY</td><td>4 (every 4th L1 version)</td></tr>
 *   <tr><td>lazarus.ckpt.pfs.keep</td><td>LAZARUS_CKPT_PFS_KEEP</td><td>2 (complete versions kept on L3); 0 keeps
 *       every version</td></tr>
 *   <tr><td>lazarus.ckpt.pfs.direct</td><td>LAZARUS_CKPT_PFS_DIRECT</td><td>true (L3 data files written with
 *       O_DIRECT where the file system takes it)</td></tr>
 *   <tr><td>lazarus.ckpt.block.size</td><td>LAZARUS_CKPT_BLOCK_SIZE</td><td>512 (bytes hashed per block)</td></tr>
 *   <tr><td>lazarus.ckpt.full.every</td><td>LAZARUS_CKPT_FULL_EVERY</td><td>8 (a full checkpoint every 8
 *       versions)</td></tr>
 *   <tr><td>lazarus.ckpt.keep</td><td>LAZARUS_CKPT_KEEP</td><td>2 (complete versions kept on L1)</td></tr>
 *   <tr><td>lazarus.ckpt.l2.every</td><td>LAZARUS_CKPT_L2_EVERY</td><td>1 (every L1 version gets XOR parity when
 *       the job spans 2 or more nodes); 0 disables L2</td></tr>
 *   <tr><td>lazarus.ckpt.l2.set.size</td><td>LAZARUS_CKPT_L2_SET_SIZE</td><td>8 nodes per XOR set</td></tr>
 *   <tr><td>lazarus.ckpt.l2.scheme</td><td>LAZARUS_CKPT_L2_SCHEME</td><td>xor (RAID-5 parity); partner stores a
 *       full copy of each node's files on the next node of its set</td></tr>
 *   <tr><td>lazarus.ckpt.l2.secret</td><td>LAZARUS_CKPT_L2_SECRET</td><td>none: the per-job secret file the
 *       launcher creates; without one L2 is off</td></tr>
 *   <tr><td>lazarus.ckpt.l2.bind</td><td>LAZARUS_CKPT_L2_BIND</td><td>LAZARUS_HOST_ADDR, else the address the
 *       node's name resolves to: the interface the node's L2 service listens on</td></tr>
 *   <tr><td>lazarus.ckpt.node</td><td>LAZARUS_CKPT_NODE</td><td>LAZARUS_HOST, else the host name: ranks with
 *       the same node name share a RAM disk</td></tr>
 * </table>
 */
public final class CheckpointSettings {
    public static final String JOB_ID = "lazarus.job.id";
    public static final String L1_DIR = "lazarus.ckpt.dir";
    public static final String PFS_DIR = "lazarus.ckpt.pfs.dir";
    public static final String PFS_EVERY = "lazarus.ckpt.pfs.every";
    public static final String PFS_KEEP = "lazarus.ckpt.pfs.keep";
    public static final String PFS_DIRECT = "lazarus.ckpt.pfs.direct";
    public static final String BLOCK_SIZE = "lazarus.ckpt.block.size";
    public static final String FULL_EVERY = "lazarus.ckpt.full.every";
    public static final String KEEP = "lazarus.ckpt.keep";
    public static final String EVERY = "lazarus.ckpt.every";
    public static final String L2_EVERY = "lazarus.ckpt.l2.every";
    public static final String L2_SET_SIZE = "lazarus.ckpt.l2.set.size";
    public static final String L2_SCHEME = "lazarus.ckpt.l2.scheme";
    public static final String L2_SECRET = "lazarus.ckpt.l2.secret";
    public static final String L2_BIND = "lazarus.ckpt.l2.bind";
    public static final String NODE = "lazarus.ckpt.node";
    public static final String DEFAULT_L1_DIR = "/dev/shm/lazarus/ckpt";
    /** Most versions {@link #KEEP} and {@link #PFS_KEEP} may keep. */
    public static final int MAX_KEEP = 1_000;
    /** In the L1 directory, stands for the node name. */
    public static final String NODE_PLACEHOLDER = "%h";
    /** Longest node name; names travel between ranks in fixed-size slots. */
    public static final int MAX_NODE_NAME_BYTES = StringGather.MAX_BYTES;

    private final Properties properties;
    private final Map<String, String> environment;
    private String jobId;
    private Path l1Directory;
    private Path pfsDirectory;
    private int pfsEvery;
    private int pfsKeep;
    private boolean pfsDirect;
    private int blockSize;
    private int fullEvery;
    private int keep;
    private int every;
    private int l2Every;
    private int l2SetSize;
    private L2Scheme l2Scheme;
    private Path l2Secret;
    private String l2Bind;
    private String node;

    public CheckpointSettings(Properties properties, Map<String, String> environment) {
        this.properties = properties;
        this.environment = environment;
    }

    /** Settings from this JVM's system properties and environment. */
    public static CheckpointSettings fromSystem() {
        return new CheckpointSettings(System.getProperties(), System.getenv());
    }

    private Optional<String> value(String property) {
        String fromProperty = properties.getProperty(property);
        if (fromProperty != null && !fromProperty.isBlank()) {
            return Optional.of(fromProperty.trim());
        }
        String env = "LAZARUS_" + property.substring("lazarus.".length()).replace('.', '_')
                .toUpperCase(java.util.Locale.ROOT);
        String fromEnv = environment.get(env);
        return fromEnv == null || fromEnv.isBlank() ? Optional.empty() : Optional.of(fromEnv.trim());
    }

    /**
     * Resolves and validates every setting.
     *
     * @param application the application's name, the default job id
     * @throws IllegalArgumentException one line naming the bad setting
     */
    public CheckpointSettings conclude(String application) {
        jobId = value(JOB_ID).orElse(application);
        JobId.check(jobId);
        node = value(NODE).or(() -> nonBlank(environment.get("LAZARUS_HOST"))).orElseGet(HostName::local);
        if (!node.matches("[A-Za-z0-9._-]{1," + MAX_NODE_NAME_BYTES + "}") || node.matches("\\.+")) {
            throw new IllegalArgumentException(NODE + "=" + node + " must be 1 to " + MAX_NODE_NAME_BYTES
                    + " of [A-Za-z0-9._-], not dots only");
        }
        // %h makes one path name a directory per node where nodes share a file system (simulated hosts).
        l1Directory = Path.of(value(L1_DIR).orElse(DEFAULT_L1_DIR).replace(NODE_PLACEHOLDER, node)).toAbsolutePath();
        String pfs = value(PFS_DIR).orElse("lazarus-ckpt");
        pfsDirectory = pfs.equals("off") ? null : Path.of(pfs).toAbsolutePath();
        pfsEvery = positive(PFS_EVERY, 4, 1_000_000);
        pfsKeep = bounded(PFS_KEEP, 2, 0, MAX_KEEP);
        pfsDirect = flag(PFS_DIRECT, true);
        blockSize = positive(BLOCK_SIZE, 512, 65536);
        try {
            BlockHashes.checkBlockSize(blockSize);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(BLOCK_SIZE + "=" + blockSize
                    + " must be a power of two from 256 to 65536");
        }
        fullEvery = positive(FULL_EVERY, 8, 1_000_000);
        keep = positive(KEEP, 2, MAX_KEEP);
        every = bounded(EVERY, 0, 0, Integer.MAX_VALUE);
        l2Every = bounded(L2_EVERY, 1, 0, 1_000_000);
        l2SetSize = bounded(L2_SET_SIZE, XorSetLayout.DEFAULT_SET_SIZE, XorSetLayout.MIN_SET_SIZE,
                XorSetLayout.MAX_SET_SIZE);
        String scheme = value(L2_SCHEME).orElse("xor");
        try {
            l2Scheme = L2Scheme.parse(scheme);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(L2_SCHEME + "=" + scheme + " must be xor or partner");
        }
        l2Secret = value(L2_SECRET).map(Path::of).map(Path::toAbsolutePath).orElse(null);
        l2Bind = value(L2_BIND).or(() -> nonBlank(environment.get("LAZARUS_HOST_ADDR"))).orElse(null);
        if (l2Bind != null && !l2Bind.matches("[0-9A-Za-z.:\\[\\]_-]{1,253}")) {
            throw new IllegalArgumentException(L2_BIND + "=" + l2Bind + " is not a host name or address");
        }
        return this;
    }

    private static Optional<String> nonBlank(String text) {
        return text == null || text.isBlank() ? Optional.empty() : Optional.of(text.trim());
    }

    private boolean flag(String property, boolean fallback) {
        String text = value(property).orElse(null);
        if (text == null) {
            return fallback;
        }
        return switch (text.toLowerCase(java.util.Locale.ROOT)) {
            case "true", "yes", "on", "1" -> true;
            case "false", "no", "off", "0" -> false;
            default -> throw new IllegalArgumentException(property + "=" + text + " must be true or false");
        };
    }

    private int positive(String property, int fallback, int max) {
        return bounded(property, fallback, 1, max);
    }

    private int bounded(String property, int fallback, int min, int max) {
        String text = value(property).orElse(null);
        if (text == null) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(text);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(property + "=" + text + " must be an integer from " + min + " to " + max);
    }

    public String jobId() {
        return jobId;
    }

    public Path l1Directory() {
        return l1Directory;
    }

    /** @return the L3 root, empty when L3 is off */
    public Optional<Path> pfsDirectory() {
        return Optional.ofNullable(pfsDirectory);
    }

    public int pfsEvery() {
        return pfsEvery;
    }

    /** @return complete versions kept on L3 (older ones go once a newer one has fully drained); 0 keeps all */
    public int pfsKeep() {
        return pfsKeep;
    }

    /** @return whether L3 data files are written with O_DIRECT (bypassing the page cache) where possible */
    public boolean pfsDirect() {
        return pfsDirect;
    }

    public int blockSize() {
        return blockSize;
    }

    public int fullEvery() {
        return fullEvery;
    }

    public int keep() {
        return keep;
    }

    /** @return every how many L1 versions one gets XOR parity on L2; 0 for never */
    public int l2Every() {
        return l2Every;
    }

    /** @return nodes per XOR set */
    public int l2SetSize() {
        return l2SetSize;
    }

    /** @return how the nodes of a set protect each other's files: XOR parity, or a copy on the next node */
    public L2Scheme l2Scheme() {
        return l2Scheme;
    }

    /** @return the per-job secret file L2 services authenticate with; empty when none was given (L2 is off) */
    public Optional<Path> l2Secret() {
        return Optional.ofNullable(l2Secret);
    }

    /** @return the host or address this node's L2 service listens on; empty for the node name's address */
    public Optional<String> l2Bind() {
        return Optional.ofNullable(l2Bind);
    }

    /** @return this rank's node name: ranks with the same name share L1 */
    public String node() {
        return node;
    }

    /** @return after every how many main-loop iterations a run checkpoints; 0 for never */
    public int every() {
        return every;
    }
}
