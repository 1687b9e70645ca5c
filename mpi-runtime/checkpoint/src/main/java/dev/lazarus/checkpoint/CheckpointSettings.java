package dev.lazarus.checkpoint;

import dev.lazarus.store.dirty.BlockHashes;
import dev.lazarus.store.format.RankManifest;

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
 *   <tr><td>lazarus.ckpt.dir</td><td>LAZARUS_CKPT_DIR</td><td>/dev/shm/lazarus/ckpt (L1, node-local)</td></tr>
 *   <tr><td>lazarus.ckpt.pfs.dir</td><td>LAZARUS_CKPT_PFS_DIR</td><td>lazarus-ckpt in the working directory
 *       (L3); {@code off} disables L3</td></tr>
 *   <tr><td>lazarus.ckpt.pfs.every</td><td>LAZARUS_CKPT_PFS_EVERY</td><td>4 (every 4th L1 version)</td></tr>
 *   <tr><td>lazarus.ckpt.block.size</td><td>LAZARUS_CKPT_BLOCK_SIZE</td><td>512 (bytes hashed per block)</td></tr>
 *   <tr><td>lazarus.ckpt.full.every</td><td>LAZARUS_CKPT_FULL_EVERY</td><td>8 (a full checkpoint every 8
 *       versions)</td></tr>
 *   <tr><td>lazarus.ckpt.keep</td><td>LAZARUS_CKPT_KEEP</td><td>2 (complete versions kept on L1)</td></tr>
 * </table>
 */
public final class CheckpointSettings {
    public static final String JOB_ID = "lazarus.job.id";
    public static final String L1_DIR = "lazarus.ckpt.dir";
    public static final String PFS_DIR = "lazarus.ckpt.pfs.dir";
    public static final String PFS_EVERY = "lazarus.ckpt.pfs.every";
    public static final String BLOCK_SIZE = "lazarus.ckpt.block.size";
    public static final String FULL_EVERY = "lazarus.ckpt.full.every";
    public static final String KEEP = "lazarus.ckpt.keep";
    public static final String EVERY = "lazarus.ckpt.every";
    public static final String DEFAULT_L1_DIR = "/dev/shm/lazarus/ckpt";

    private final Properties properties;
    private final Map<String, String> environment;
    private String jobId;
    private Path l1Directory;
    private Path pfsDirectory;
    private int pfsEvery;
    private int blockSize;
    private int fullEvery;
    private int keep;
    private int every;

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
        RankManifest.checkJob(jobId);
        l1Directory = Path.of(value(L1_DIR).orElse(DEFAULT_L1_DIR)).toAbsolutePath();
        String pfs = value(PFS_DIR).orElse("lazarus-ckpt");
        pfsDirectory = pfs.equals("off") ? null : Path.of(pfs).toAbsolutePath();
        pfsEvery = positive(PFS_EVERY, 4, 1_000_000);
        blockSize = positive(BLOCK_SIZE, 512, 65536);
        try {
            BlockHashes.checkBlockSize(blockSize);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(BLOCK_SIZE + "=" + blockSize
                    + " must be a power of two from 256 to 65536");
        }
        fullEvery = positive(FULL_EVERY, 8, 1_000_000);
        keep = positive(KEEP, 2, 1_000);
        every = bounded(EVERY, 0, 0, Integer.MAX_VALUE);
        return this;
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

    public int blockSize() {
        return blockSize;
    }

    public int fullEvery() {
        return fullEvery;
    }

    public int keep() {
        return keep;
    }

    /** @return after every how many main-loop iterations a run checkpoints; 0 for never */
    public int every() {
        return every;
    }
}
