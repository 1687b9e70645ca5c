package dev.lazarus.easycrash;

import dev.lazarus.mpi.launch.LaunchDirective;
import dev.lazarus.store.settings.SettingSource;
import dev.lazarus.store.settings.Settings;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * EasyCrash's settings, read through the one table {@link Settings} and its {@link SettingSource}: system property
 * (set by the launcher from the command line), then environment, then default. {@link #conclude} validates
 * everything before any file is touched.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>property</th><th>environment</th><th>default</th></tr>
 *   <tr><td>lazarus.nvm.dir</td><td>LAZARUS_NVM_DIR</td><td>/dev/shm/lazarus/nvm</td></tr>
 *   <tr><td>lazarus.job.id</td><td>LAZARUS_JOB_ID</td><td>the application name</td></tr>
 *   <tr><td>lazarus.nvm.heap.size</td><td>LAZARUS_NVM_HEAP_SIZE (LAZARUS_HEAP_SIZE, deprecated)</td><td>what the
 *       application asks for</td></tr>
 *   <tr><td>lazarus.plan</td><td>LAZARUS_PLAN</td><td>none (persist nothing)</td></tr>
 *   <tr><td>lazarus.nvm.restart</td><td>LAZARUS_NVM_RESTART</td><td>auto (resume from NVM when possible; off =
 *       always start fresh)</td></tr>
 *   <tr><td>lazarus.easycrash</td><td>LAZARUS_EASYCRASH</td><td>on (off = the application's objects are plain Java
 *       arrays: no NVM heap, no bookmark, no restart; the plain program, to measure overheads against)</td></tr>
 * </table>
 */
public final class EasyCrashSettings {
    public static final String NVM_DIR = Settings.NVM_DIR.property();
    public static final String JOB_ID = Settings.JOB_ID.property();
    public static final String HEAP_SIZE = Settings.NVM_HEAP_SIZE.property();
    public static final String PLAN = Settings.PLAN.property();
    public static final String RESTART = Settings.NVM_RESTART.property();
    public static final String EASYCRASH = Settings.EASYCRASH.property();
    public static final String DEFAULT_NVM_DIR = Settings.DEFAULT_NVM_DIR;

    private final SettingSource source;
    private final Map<String, String> environment;
    private Path nvmDirectory;
    private String jobId;
    private long heapSize;
    private Path planFile;
    private boolean restart;
    private String restartOffReason;
    private boolean plainArrays;

    public EasyCrashSettings(Properties properties, Map<String, String> environment) {
        this.source = new SettingSource(properties, environment);
        this.environment = Map.copyOf(environment);
    }

    /** Settings from this JVM's system properties and environment. */
    public static EasyCrashSettings fromSystem() {
        return new EasyCrashSettings(System.getProperties(), System.getenv());
    }

    /**
     * Resolves and validates every setting.
     *
     * @param application     the application's name, the default job id
     * @param applicationHeap bytes the application needs, the default heap size
     * @throws IllegalArgumentException one line naming the bad setting
     */
    public EasyCrashSettings conclude(String application, long applicationHeap) {
        nvmDirectory = Path.of(source.text(Settings.NVM_DIR).orElse(DEFAULT_NVM_DIR)).toAbsolutePath();
        jobId = source.text(Settings.JOB_ID).orElse(application);
        String size = source.text(Settings.NVM_HEAP_SIZE).orElse(null);
        heapSize = size == null ? applicationHeap : parseBytes(size);
        if (heapSize < applicationHeap) {
            throw new IllegalArgumentException(HEAP_SIZE + "=" + size + " is smaller than the " + applicationHeap
                    + " bytes " + application + " needs");
        }
        planFile = source.text(Settings.PLAN).map(Path::of).orElse(null);
        restart = source.choice(Settings.NVM_RESTART, "auto", "auto", "off").equals("auto");
        restartOffReason = restart ? null : "NVM restart is off";
        LaunchDirective directive = LaunchDirective.of(environment);
        if (restart && directive.rollBack()) {
            restart = false;
            restartOffReason = "the coordinator chose rollback: " + directive.reason();
        }
        plainArrays = easyCrashOff();
        if (plainArrays && planFile != null) {
            throw new IllegalArgumentException(EASYCRASH + "=off runs without a persistent heap, so it cannot follow the"
                    + " plan " + planFile);
        }
        return this;
    }

    /** Parses {@code 123}, {@code 64k}, {@code 512m}, {@code 2g} (binary units). */
    static long parseBytes(String text) {
        String t = text.trim().toLowerCase(java.util.Locale.ROOT);
        long unit = switch (t.isEmpty() ? ' ' : t.charAt(t.length() - 1)) {
            case 'k' -> 1L << 10;
            case 'm' -> 1L << 20;
            case 'g' -> 1L << 30;
            default -> 1;
        };
        try {
            long n = Long.parseLong(unit == 1 ? t : t.substring(0, t.length() - 1));
            if (n <= 0) {
                throw new NumberFormatException();
            }
            return Math.multiplyExact(n, unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(HEAP_SIZE + "=" + text + " is not a positive size such as 512m");
        }
    }

    public Path nvmDirectory() {
        return nvmDirectory;
    }

    public String jobId() {
        return jobId;
    }

    public long heapSize() {
        return heapSize;
    }

    public Optional<Path> planFile() {
        return Optional.ofNullable(planFile);
    }

    public boolean restart() {
        return restart;
    }

    /** @return why this start does not resume from NVM (the setting, or the coordinator's directive); null if it may */
    public String restartOffReason() {
        return restartOffReason;
    }

    /** EasyCrash off (concluded): the application's objects are plain Java arrays, nothing is kept across a crash. */
    public boolean plainArrays() {
        return plainArrays;
    }

    /**
     * Whether {@value #EASYCRASH} is off, read before the settings are concluded (a plain run needs no heap size).
     *
     * @throws IllegalArgumentException unless the setting is on or off
     */
    public boolean easyCrashOff() {
        return source.choice(Settings.EASYCRASH, "on", "on", "off").equals("off");
    }
}
