package dev.lazarus.store.settings;

import java.util.List;

/**
 * The table of every setting the command line, the ranks and the node daemon read: property, default and the old
 * environment names kept for one release. The README's configuration table states the same (a test compares them);
 * validation lives with each setting's reader ({@code EasyCrashSettings}, {@code CheckpointSettings},
 * {@code L2Context}), through {@link SettingSource}'s parsers.
 */
public final class Settings {
    /** The node-local RAM disk L1 lives on, unless {@link #CKPT_DIR} says otherwise. */
    public static final String DEFAULT_L1_DIR = "/dev/shm/lazarus/ckpt";
    /** Where persistent heaps live, unless {@link #NVM_DIR} says otherwise. */
    public static final String DEFAULT_NVM_DIR = "/dev/shm/lazarus/nvm";

    public static final Setting JOB_ID = of("lazarus.job.id", "the application name");
    public static final Setting NVM_DIR = of("lazarus.nvm.dir", DEFAULT_NVM_DIR);
    public static final Setting NVM_HEAP_SIZE = of("lazarus.nvm.heap.size", "what the application needs",
            "LAZARUS_HEAP_SIZE");
    public static final Setting PLAN = of("lazarus.plan", "none");
    public static final Setting NVM_RESTART = of("lazarus.nvm.restart", "auto");
    public static final Setting EASYCRASH = of("lazarus.easycrash", "on");
    public static final Setting CKPT_EVERY = of("lazarus.ckpt.every", "0");
    /** The MTBF {@code lazarus.ckpt.every=auto} plans for, seconds. */
    public static final Setting CKPT_MTBF = of("lazarus.ckpt.mtbf", "the coordinator's estimate, else 86400");
    public static final Setting CKPT_DIR = of("lazarus.ckpt.dir", DEFAULT_L1_DIR);
    public static final Setting CKPT_NODE = of("lazarus.ckpt.node", "LAZARUS_HOST, else the host name");
    /** Where a node's L2 work runs: in its leader rank ({@code embedded}) or its node daemon process. */
    public static final Setting CKPT_DAEMON = of("lazarus.ckpt.daemon", "embedded");
    /** The node-local directory of the node daemons' sockets. */
    public static final Setting RUN_DIR = of("lazarus.run.dir", "/tmp/lazarus-UID");
    public static final Setting CKPT_L2_EVERY = of("lazarus.ckpt.l2.every", "1");
    public static final Setting CKPT_L2_SET_SIZE = of("lazarus.ckpt.l2.set.size", "8", "LAZARUS_L2_SET_SIZE");
    public static final Setting CKPT_L2_SCHEME = of("lazarus.ckpt.l2.scheme", "xor", "LAZARUS_L2_SCHEME");
    public static final Setting CKPT_L2_SECRET = of("lazarus.ckpt.l2.secret", "a new one per launch",
            "LAZARUS_L2_SECRET");
    /** The address a rank's node service binds to; the kernel picks the port. */
    public static final Setting CKPT_L2_BIND = of("lazarus.ckpt.l2.bind",
            "LAZARUS_HOST_ADDR, else the host name's address");
    /** The {@code host:port} the stand-alone L2 command serves on ({@code L2Main serve}). */
    public static final Setting CKPT_L2_LISTEN = of("lazarus.ckpt.l2.listen", "(required to serve)",
            "LAZARUS_L2_BIND");
    public static final Setting CKPT_L2_MEMBERS = of("lazarus.ckpt.l2.members", "(required to encode, rebuild)",
            "LAZARUS_L2_MEMBERS");
    public static final Setting CKPT_L2_SELF = of("lazarus.ckpt.l2.self", "(required with the node list)",
            "LAZARUS_L2_SELF");
    public static final Setting CKPT_PFS_DIR = of("lazarus.ckpt.pfs.dir", "lazarus-ckpt in the working directory");
    public static final Setting CKPT_PFS_EVERY = of("lazarus.ckpt.pfs.every", "4");
    public static final Setting CKPT_PFS_KEEP = of("lazarus.ckpt.pfs.keep", "2");
    public static final Setting CKPT_PFS_DIRECT = of("lazarus.ckpt.pfs.direct", "true");
    public static final Setting CKPT_BLOCK_SIZE = of("lazarus.ckpt.block.size", "512");
    public static final Setting CKPT_FULL_EVERY = of("lazarus.ckpt.full.every", "8");
    public static final Setting CKPT_KEEP = of("lazarus.ckpt.keep", "2");
    /** Where the coordinator keeps the job's recovery state between allocations; {@code off}: nowhere. */
    public static final Setting COORDINATOR_STATE_DIR = of("lazarus.coordinator.state.dir", "~/.lazarus/state");
    /** The first port the coordinator's Hazelcast member tries (then the next ones). */
    public static final Setting COORDINATOR_PORT = of("lazarus.coordinator.port", "5710");

    /** Every setting, in the README's order. */
    public static final List<Setting> ALL = List.of(JOB_ID, NVM_DIR, NVM_HEAP_SIZE, PLAN, NVM_RESTART, EASYCRASH,
            CKPT_EVERY, CKPT_MTBF, CKPT_DIR, CKPT_NODE, CKPT_DAEMON, RUN_DIR, CKPT_L2_EVERY, CKPT_L2_SET_SIZE, CKPT_L2_SCHEME,
            CKPT_L2_SECRET, CKPT_L2_BIND, CKPT_L2_LISTEN, CKPT_L2_MEMBERS, CKPT_L2_SELF, CKPT_PFS_DIR, CKPT_PFS_EVERY, CKPT_BLOCK_SIZE,
            CKPT_FULL_EVERY, CKPT_KEEP, CKPT_PFS_DIRECT, CKPT_PFS_KEEP, COORDINATOR_STATE_DIR, COORDINATOR_PORT);

    private Settings() {
    }

    private static Setting of(String property, String defaultValue, String... deprecatedEnvironment) {
        return new Setting(property, defaultValue, List.of(deprecatedEnvironment));
    }
}
