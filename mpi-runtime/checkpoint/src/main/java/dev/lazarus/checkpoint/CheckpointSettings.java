package dev.lazarus.checkpoint;

import dev.lazarus.daemon.DaemonSocket;
import dev.lazarus.daemon.NodeDaemonConfig;
import dev.lazarus.store.JobId;
import dev.lazarus.store.dirty.BlockHashes;
import dev.lazarus.store.level.l2.L2Scheme;
import dev.lazarus.store.level.xor.XorSetLayout;
import dev.lazarus.store.settings.NodeName;
import dev.lazarus.store.settings.SettingSource;
import dev.lazarus.store.settings.Settings;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * Settings of the checkpoint client, read through the one table {@link Settings} and its {@link SettingSource}:
 * system property (set by the launcher from the command line), then environment, then default. {@link #conclude}
 * validates everything before any file is touched.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>property</th><th>environment</th><th>default</th></tr>
 *   <tr><td>lazarus.job.id</td><td>LAZARUS_JOB_ID</td><td>the application name</td></tr>
 *   <tr><td>lazarus.ckpt.every</td><td>LAZARUS_CKPT_EVERY</td><td>0: no checkpoints; auto: Daly's interval from the
 *       measured checkpoint and iteration times, the MTBF and R; N: after every Nth main-loop
 *       iteration of a {@code RecomputingRun}</td></tr>
 *   <tr><td>lazarus.ckpt.mtbf</td><td>LAZARUS_CKPT_MTBF</td><td>the MTBF, seconds, that {@code auto} plans for
 *       (default: the coordinator's estimate, else a day)</td></tr>
 *   <tr><td>lazarus.ckpt.dir</td><td>LAZARUS_CKPT_DIR</td><td>/dev/shm/lazarus/ckpt (L1, node-local; {@code %h}
 *       stands for the node name)</td></tr>
 *   <tr><td>lazarus.ckpt.pfs.dir</td><td>LAZARUS_CKPT_PFS_DIR</td><td>lazarus-ckpt in the working directory
 *       (L3); {@code off} disables L3</td></tr>
 *   <tr><td>lazarus.ckpt.pfs.every</td><td>LAZARUS_CKPT_PFS_EVERY</td><td>4 (every 4th L1 version)</td></tr>
 *   <tr><td>lazarus.ckpt.pfs.keep</td><td>LAZARUS_CKPT_PFS_KEEP</td><td>2 (complete versions kept on L3); 0 keeps
 *       every version</td></tr>
 *   <tr><td>lazarus.ckpt.pfs.direct</td><td>LAZARUS_CKPT_PFS_DIRECT</td><td>true (L3 data files written, and
 *       read at a restore, with O_DIRECT where the file system takes it)</td></tr>
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
 *   <tr><td>lazarus.ckpt.daemon</td><td>LAZARUS_CKPT_DAEMON</td><td>embedded: the node's L2 service, encoding and
 *       rebuilds run in its leader rank, and each rank drains its own files to L3; process: all of it, L3 draining
 *       of the node's ranks included, in the node daemon process {@code lazarus run --node-daemon process} starts
 *       on every node</td></tr>
 *   <tr><td>lazarus.ckpt.node</td><td>LAZARUS_CKPT_NODE</td><td>LAZARUS_HOST, else the host name: ranks with
 *       the same node name share a RAM disk</td></tr>
 * </table>
 */
public final class CheckpointSettings {
    public static final String JOB_ID = Settings.JOB_ID.property();
    public static final String L1_DIR = Settings.CKPT_DIR.property();
    public static final String PFS_DIR = Settings.CKPT_PFS_DIR.property();
    public static final String PFS_EVERY = Settings.CKPT_PFS_EVERY.property();
    public static final String PFS_KEEP = Settings.CKPT_PFS_KEEP.property();
    public static final String PFS_DIRECT = Settings.CKPT_PFS_DIRECT.property();
    public static final String BLOCK_SIZE = Settings.CKPT_BLOCK_SIZE.property();
    public static final String FULL_EVERY = Settings.CKPT_FULL_EVERY.property();
    public static final String KEEP = Settings.CKPT_KEEP.property();
    public static final String EVERY = Settings.CKPT_EVERY.property();
    public static final String MTBF = Settings.CKPT_MTBF.property();
    /** The value of {@link #EVERY} that chooses the interval as the run goes. */
    public static final String AUTO = "auto";
    /** The longest MTBF accepted: ten years. */
    public static final double MAX_MTBF_SECONDS = 10 * 365 * 24 * 3600.0;
    public static final String L2_EVERY = Settings.CKPT_L2_EVERY.property();
    public static final String L2_SET_SIZE = Settings.CKPT_L2_SET_SIZE.property();
    public static final String L2_SCHEME = Settings.CKPT_L2_SCHEME.property();
    public static final String L2_SECRET = Settings.CKPT_L2_SECRET.property();
    public static final String L2_BIND = Settings.CKPT_L2_BIND.property();
    public static final String NODE = Settings.CKPT_NODE.property();
    public static final String DEFAULT_L1_DIR = Settings.DEFAULT_L1_DIR;
    /** Most versions {@link #KEEP} and {@link #PFS_KEEP} may keep. */
    public static final int MAX_KEEP = 1_000;
    /** In the L1 directory, stands for the node name. */
    public static final String NODE_PLACEHOLDER = "%h";

    private final SettingSource source;
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
    private boolean autoInterval;
    private double mtbfSeconds = Double.NaN;
    private int l2Every;
    private int l2SetSize;
    private L2Scheme l2Scheme;
    private Path l2Secret;
    private String l2Bind;
    private String node;
    private String daemonMode;
    private Path daemonSocket;

    public CheckpointSettings(Properties properties, Map<String, String> environment) {
        this.source = new SettingSource(properties, environment);
    }

    /** Settings from this JVM's system properties and environment. */
    public static CheckpointSettings fromSystem() {
        return new CheckpointSettings(System.getProperties(), System.getenv());
    }

    /**
     * Resolves and validates every setting.
     *
     * @param application the application's name, the default job id
     * @throws IllegalArgumentException one line naming the bad setting
     */
    public CheckpointSettings conclude(String application) {
        jobId = source.text(Settings.JOB_ID).orElse(application);
        JobId.check(jobId);
        node = NodeName.of(source);
        daemonMode = source.choice(Settings.CKPT_DAEMON, NodeDaemonConfig.EMBEDDED, NodeDaemonConfig.EMBEDDED,
                NodeDaemonConfig.PROCESS);
        daemonSocket = daemonMode.equals(NodeDaemonConfig.PROCESS)
                ? DaemonSocket.of(DaemonSocket.runDirectory(source), node, jobId) : null;
        // %h makes one path name a directory per node where nodes share a file system (simulated hosts).
        l1Directory = Path.of(source.text(Settings.CKPT_DIR).orElse(DEFAULT_L1_DIR).replace(NODE_PLACEHOLDER, node))
                .toAbsolutePath();
        String pfs = source.text(Settings.CKPT_PFS_DIR).orElse("lazarus-ckpt");
        pfsDirectory = pfs.equals("off") ? null : Path.of(pfs).toAbsolutePath();
        pfsEvery = source.integer(Settings.CKPT_PFS_EVERY, 4, 1, 1_000_000);
        pfsKeep = source.integer(Settings.CKPT_PFS_KEEP, 2, 0, MAX_KEEP);
        pfsDirect = source.flag(Settings.CKPT_PFS_DIRECT, true);
        blockSize = source.integer(Settings.CKPT_BLOCK_SIZE, 512, 1, 65536);
        try {
            BlockHashes.checkBlockSize(blockSize);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(BLOCK_SIZE + "=" + blockSize
                    + " must be a power of two from 256 to 65536");
        }
        fullEvery = source.integer(Settings.CKPT_FULL_EVERY, 8, 1, 1_000_000);
        keep = source.integer(Settings.CKPT_KEEP, 2, 1, MAX_KEEP);
        autoInterval = source.text(Settings.CKPT_EVERY).filter(AUTO::equals).isPresent();
        every = autoInterval ? 0 : source.integer(Settings.CKPT_EVERY, 0, 0, Integer.MAX_VALUE);
        mtbfSeconds = mtbf(source.text(Settings.CKPT_MTBF).orElse(null));
        l2Every = source.integer(Settings.CKPT_L2_EVERY, 1, 0, 1_000_000);
        l2SetSize = source.integer(Settings.CKPT_L2_SET_SIZE, XorSetLayout.DEFAULT_SET_SIZE, XorSetLayout.MIN_SET_SIZE,
                XorSetLayout.MAX_SET_SIZE);
        String scheme = source.text(Settings.CKPT_L2_SCHEME).orElse("xor");
        try {
            l2Scheme = L2Scheme.parse(scheme);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(L2_SCHEME + "=" + scheme + " must be xor or partner");
        }
        l2Secret = source.text(Settings.CKPT_L2_SECRET).map(Path::of).map(Path::toAbsolutePath).orElse(null);
        l2Bind = source.text(Settings.CKPT_L2_BIND).or(() -> source.environmentText("LAZARUS_HOST_ADDR"))
                .orElse(null);
        if (l2Bind != null && !l2Bind.matches("[0-9A-Za-z.:\\[\\]_-]{1,253}")) {
            throw new IllegalArgumentException(L2_BIND + "=" + l2Bind + " is not a host name or address");
        }
        return this;
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

    /** @return whether L3 data files are written and read with O_DIRECT (bypassing the page cache) where possible */
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

    /** @return where the node's L2 work runs: {@code embedded} (its leader rank) or {@code process} (its daemon) */
    public String daemonMode() {
        return daemonMode;
    }

    /** @return where this node's daemon process of the job listens ({@code process} mode), else null */
    public Path daemonSocket() {
        return daemonSocket;
    }

    /**
     * @return the settings every rank of a job must share, as one line: what decides when the ranks checkpoint,
     *         drain and prune together (not paths, node names or addresses, which differ by node)
     */
    public String sharedByEveryRank() {
        return "job=" + jobId + " every=" + (autoInterval ? AUTO : String.valueOf(every)) + " block.size=" + blockSize
                + " full.every=" + fullEvery + " keep=" + keep + " l2.every=" + l2Every + " l2.set.size=" + l2SetSize
                + " l2.scheme=" + l2Scheme + " l2.secret=" + (l2Secret != null ? "given" : "none") + " pfs="
                + (pfsDirectory != null ? "on" : "off") + " pfs.every=" + pfsEvery + " pfs.keep=" + pfsKeep
                + " pfs.direct=" + pfsDirect + " daemon=" + daemonMode;
    }

    /** @return this rank's node name: ranks with the same name share L1 */
    public String node() {
        return node;
    }

    /** @return after every how many main-loop iterations a run checkpoints; 0 for never or {@link #auto()} */
    public int every() {
        return every;
    }

    /** @return whether the interval is chosen as the run goes ({@code lazarus.ckpt.every=auto}) */
    public boolean auto() {
        return autoInterval;
    }

    /** @return whether the run checkpoints at all: a fixed interval or {@code auto} */
    public boolean enabled() {
        return every > 0 || autoInterval;
    }

    /** @return the configured MTBF in seconds ({@code lazarus.ckpt.mtbf}), or NaN when none is configured */
    public double mtbfSeconds() {
        return mtbfSeconds;
    }

    /**
     * @return {@code text} as an MTBF in seconds, NaN for null
     * @throws IllegalArgumentException one line unless it is a number of seconds from 1 to {@value #MAX_MTBF_SECONDS}
     */
    public static double mtbf(String text) {
        if (text == null) {
            return Double.NaN;
        }
        try {
            double seconds = Double.parseDouble(text);
            if (seconds >= 1 && seconds <= MAX_MTBF_SECONDS) {
                return seconds;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(MTBF + "=" + text + " must be a number of seconds from 1 to "
                + (long) MAX_MTBF_SECONDS);
    }
}
