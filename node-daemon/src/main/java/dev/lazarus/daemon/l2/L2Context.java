package dev.lazarus.daemon.l2;

import dev.lazarus.daemon.l2.wire.JobSecret;
import dev.lazarus.store.DirectoryCheck;
import dev.lazarus.store.JobId;
import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.store.level.l2.L2Scheme;
import dev.lazarus.store.level.xor.XorSetLayout;
import dev.lazarus.store.settings.SettingSource;
import dev.lazarus.store.settings.Settings;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;

/**
 * Settings of the node daemon's L2 level, each in one place. Set what the command line gave with the fluent setters,
 * fill the rest from the environment with {@link #environment}, then {@link #conclude()} applies defaults and
 * validates everything, secret file included, before any file or socket is created.
 *
 * <table>
 *   <caption>Settings (precedence: setter, i.e. command line, then environment, then default)</caption>
 *   <tr><th>setting</th><th>option</th><th>environment</th><th>default</th></tr>
 *   <tr><td>job id</td><td>--job</td><td>LAZARUS_JOB_ID</td><td>(required)</td></tr>
 *   <tr><td>L1 root</td><td>--l1</td><td>LAZARUS_CKPT_DIR</td><td>/dev/shm/lazarus/ckpt</td></tr>
 *   <tr><td>secret file</td><td>--secret</td><td>LAZARUS_CKPT_L2_SECRET</td><td>(required)</td></tr>
 *   <tr><td>bind address</td><td>--bind</td><td>LAZARUS_CKPT_L2_LISTEN</td><td>(required to serve)</td></tr>
 *   <tr><td>wildcard bind allowed</td><td>--allow-wildcard</td><td></td><td>no</td></tr>
 *   <tr><td>node list</td><td>--members</td><td>LAZARUS_CKPT_L2_MEMBERS</td><td>(required to encode or
 *       rebuild)</td></tr>
 *   <tr><td>this node's index</td><td>--self</td><td>LAZARUS_CKPT_L2_SELF</td><td>(required with the node
 *       list)</td></tr>
 *   <tr><td>set size</td><td>--set-size</td><td>LAZARUS_CKPT_L2_SET_SIZE</td><td>8</td></tr>
 *   <tr><td>scheme (what encode writes; a rebuild follows the survivors' manifests)</td><td>--scheme</td>
 *       <td>LAZARUS_CKPT_L2_SCHEME</td><td>xor</td></tr>
 *   <tr><td>connect timeout</td><td>--connect-timeout-ms</td><td></td><td>5000</td></tr>
 *   <tr><td>I/O timeout</td><td>--io-timeout-ms</td><td></td><td>30000</td></tr>
 * </table>
 * The environment names follow the one rule of {@link Settings}; the older {@code LAZARUS_L2_*} names are still read,
 * with a deprecation line, for one release.
 */
public final class L2Context {
    public static final String ENV_JOB = Settings.JOB_ID.environment();
    public static final String ENV_L1 = Settings.CKPT_DIR.environment();
    public static final String ENV_SECRET = Settings.CKPT_L2_SECRET.environment();
    public static final String ENV_BIND = Settings.CKPT_L2_LISTEN.environment();
    public static final String ENV_MEMBERS = Settings.CKPT_L2_MEMBERS.environment();
    public static final String ENV_SELF = Settings.CKPT_L2_SELF.environment();
    public static final String ENV_SET_SIZE = Settings.CKPT_L2_SET_SIZE.environment();
    public static final String ENV_SCHEME = Settings.CKPT_L2_SCHEME.environment();
    public static final String DEFAULT_L1 = Settings.DEFAULT_L1_DIR;
    public static final int DEFAULT_CONNECT_TIMEOUT_MILLIS = 5_000;
    public static final int DEFAULT_IO_TIMEOUT_MILLIS = 30_000;
    /** Bytes one range request asks for: large enough that a request's round trip is lost in the transfer. */
    public static final long DEFAULT_WINDOW_BYTES = 16L << 20;
    public static final int DEFAULT_MAX_CONNECTIONS = 256;
    /**
     * Parallel rebuild workers: one thread receiving and XORing is the limit of a rebuild (it reads n-1 times the
     * payload), and while a node rebuilds, its ranks wait, so the node's cores are free.
     */
    public static final int DEFAULT_REBUILD_WORKERS = Math.min(4, Runtime.getRuntime().availableProcessors());
    public static final int MAX_REBUILD_WORKERS = 64;

    private String job;
    private Path l1Root;
    private Path secretFile;
    private String bind;
    private boolean allowWildcard;
    private List<String> members;
    private Integer self;
    private Integer setSize;
    private L2Scheme scheme;
    private int connectTimeoutMillis = DEFAULT_CONNECT_TIMEOUT_MILLIS;
    private int ioTimeoutMillis = DEFAULT_IO_TIMEOUT_MILLIS;
    private long windowBytes = DEFAULT_WINDOW_BYTES;
    private int maxConnections = DEFAULT_MAX_CONNECTIONS;
    private int rebuildWorkers = DEFAULT_REBUILD_WORKERS;
    private Consumer<String> log = System.err::println;

    private JobSecret secret;
    private InetSocketAddress bindAddress;
    private XorSetMembership membership;
    private CheckpointDirectory l1;
    private boolean concluded;

    public L2Context job(String job) {
        this.job = job;
        return this;
    }

    public L2Context l1Root(Path l1Root) {
        this.l1Root = l1Root;
        return this;
    }

    public L2Context secretFile(Path secretFile) {
        this.secretFile = secretFile;
        return this;
    }

    /** @param bind {@code host:port} to listen on; a wildcard host needs {@link #allowWildcard} */
    public L2Context bind(String bind) {
        this.bind = bind;
        return this;
    }

    public L2Context allowWildcard(boolean allowWildcard) {
        this.allowWildcard = allowWildcard;
        return this;
    }

    /** @param members every node's {@code host:port}, in node order; sets are consecutive groups of it */
    public L2Context members(List<String> members) {
        this.members = List.copyOf(members);
        return this;
    }

    /** @param self this node's index in the node list */
    public L2Context self(int self) {
        this.self = self;
        return this;
    }

    public L2Context setSize(int setSize) {
        this.setSize = setSize;
        return this;
    }

    /** @param scheme how this node encodes its parity: XOR, or a copy of its left neighbour's payload */
    public L2Context scheme(L2Scheme scheme) {
        this.scheme = scheme;
        return this;
    }

    public L2Context connectTimeoutMillis(int connectTimeoutMillis) {
        this.connectTimeoutMillis = connectTimeoutMillis;
        return this;
    }

    public L2Context ioTimeoutMillis(int ioTimeoutMillis) {
        this.ioTimeoutMillis = ioTimeoutMillis;
        return this;
    }

    /** @param windowBytes the most one range request asks for (tests use small windows) */
    public L2Context windowBytes(long windowBytes) {
        this.windowBytes = windowBytes;
        return this;
    }

    public L2Context maxConnections(int maxConnections) {
        this.maxConnections = maxConnections;
        return this;
    }

    /** @param rebuildWorkers threads that rebuild a lost node's files in parallel, each with its own connections */
    public L2Context rebuildWorkers(int rebuildWorkers) {
        this.rebuildWorkers = rebuildWorkers;
        return this;
    }

    /** @param log where one-line reports go (refused connections, timeouts) */
    public L2Context log(Consumer<String> log) {
        this.log = log;
        return this;
    }

    /**
     * Fills every setting not set yet from the environment's LAZARUS_* variables (names by the rule of
     * {@link Settings}; the older {@code LAZARUS_L2_*} names with a deprecation line).
     */
    public L2Context environment(Map<String, String> env) {
        SettingSource source = new SettingSource(new Properties(), env);
        job = job != null ? job : source.text(Settings.JOB_ID).orElse(null);
        l1Root = l1Root != null ? l1Root : source.text(Settings.CKPT_DIR).map(Path::of).orElse(null);
        secretFile = secretFile != null ? secretFile : source.text(Settings.CKPT_L2_SECRET).map(Path::of).orElse(null);
        bind = bind != null ? bind : source.text(Settings.CKPT_L2_LISTEN).orElse(null);
        if (members == null) {
            members = source.text(Settings.CKPT_L2_MEMBERS).map(list -> List.of(list.split(","))).orElse(null);
        }
        self = self != null ? self : source.text(Settings.CKPT_L2_SELF).map(v -> integer(ENV_SELF, v)).orElse(null);
        setSize = setSize != null ? setSize
                : source.text(Settings.CKPT_L2_SET_SIZE).map(v -> integer(ENV_SET_SIZE, v)).orElse(null);
        if (scheme == null) {
            scheme = source.text(Settings.CKPT_L2_SCHEME).map(L2Scheme::parse).orElse(null);
        }
        return this;
    }

    /**
     * Applies defaults and validates every setting; loads the secret.
     *
     * @throws IllegalArgumentException one line naming the bad setting
     * @throws UncheckedIOException     if the secret file is missing or unsafe, with the file's problem
     */
    public L2Context conclude() {
        if (job == null) {
            throw new IllegalArgumentException("job id not set (--job or " + ENV_JOB + ")");
        }
        JobId.check(job);
        l1Root = DirectoryCheck.creatable("L1 root", (l1Root != null ? l1Root : Path.of(DEFAULT_L1)).toAbsolutePath());
        if (secretFile == null) {
            throw new IllegalArgumentException("secret file not set (--secret or " + ENV_SECRET + ")");
        }
        setSize = setSize != null ? setSize : XorSetLayout.DEFAULT_SET_SIZE;
        check(setSize >= XorSetLayout.MIN_SET_SIZE && setSize <= XorSetLayout.MAX_SET_SIZE,
                "setSize=" + setSize + " must be " + XorSetLayout.MIN_SET_SIZE + " to " + XorSetLayout.MAX_SET_SIZE);
        scheme = scheme != null ? scheme : L2Scheme.XOR;
        check(connectTimeoutMillis >= 1, "connectTimeoutMillis=" + connectTimeoutMillis + " must be positive");
        check(ioTimeoutMillis >= 1, "ioTimeoutMillis=" + ioTimeoutMillis + " must be positive");
        check(windowBytes >= 1, "windowBytes=" + windowBytes + " must be positive");
        check(maxConnections >= 1, "maxConnections=" + maxConnections + " must be positive");
        check(rebuildWorkers >= 1 && rebuildWorkers <= MAX_REBUILD_WORKERS, "rebuildWorkers=" + rebuildWorkers
                + " must be 1 to " + MAX_REBUILD_WORKERS);
        if (bind != null) {
            bindAddress = Endpoints.parse(bind);
            check(allowWildcard || !bindAddress.getAddress().isAnyLocalAddress(),
                    "bind address " + bind + " is a wildcard: give the interface's address, or --allow-wildcard");
        }
        if (members != null || self != null) {
            check(members != null && !members.isEmpty(), "self is set but the node list is not (--members)");
            check(self != null, "the node list is set but not this node's index (--self)");
            check(self >= 0 && self < members.size(), "self=" + self + " outside the " + members.size()
                    + " members");
            List<InetSocketAddress> resolved = new ArrayList<>(members.size());
            for (String member : members) {
                resolved.add(Endpoints.parse(member));
            }
            membership = XorSetMembership.of(members, resolved, self, setSize);
        }
        try {
            secret = JobSecret.load(secretFile);
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
        l1 = new CheckpointDirectory(l1Root, job);
        concluded = true;
        return this;
    }

    public String job() {
        requireConcluded();
        return job;
    }

    public Path l1Root() {
        requireConcluded();
        return l1Root;
    }

    /** @return this job's L1 directory on this node */
    public CheckpointDirectory l1() {
        requireConcluded();
        return l1;
    }

    public JobSecret secret() {
        requireConcluded();
        return secret;
    }

    /** @return the address to listen on; {@link IllegalStateException} if none was set */
    public InetSocketAddress bindAddress() {
        requireConcluded();
        if (bindAddress == null) {
            throw new IllegalStateException("bind address not set (--bind ADDR:PORT or " + ENV_BIND + ")");
        }
        return bindAddress;
    }

    /** @return this node's XOR set; {@link IllegalStateException} if the node list was not set */
    public XorSetMembership membership() {
        requireConcluded();
        if (membership == null) {
            throw new IllegalStateException("node list not set (--members A:P,B:P,... and --self INDEX)");
        }
        return membership;
    }

    public int setSize() {
        requireConcluded();
        return setSize;
    }

    /** @return the scheme this node encodes with */
    public L2Scheme scheme() {
        requireConcluded();
        return scheme;
    }

    public int connectTimeoutMillis() {
        return connectTimeoutMillis;
    }

    public int ioTimeoutMillis() {
        return ioTimeoutMillis;
    }

    public long windowBytes() {
        return windowBytes;
    }

    public int rebuildWorkers() {
        return rebuildWorkers;
    }

    public int maxConnections() {
        return maxConnections;
    }

    public Consumer<String> log() {
        return log;
    }

    private void requireConcluded() {
        if (!concluded) {
            throw new IllegalStateException("L2Context used before conclude()");
        }
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    private static Integer integer(String name, String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + "=" + text + " is not an integer");
        }
    }
}
