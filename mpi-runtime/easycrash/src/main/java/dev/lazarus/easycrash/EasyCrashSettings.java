package dev.lazarus.easycrash;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * EasyCrash's settings, each in one place: system property, environment variable, default. Precedence: system
 * property (set by the launcher from the command line), then environment, then default. {@link #conclude} validates
 * everything before any file is touched.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>property</th><th>environment</th><th>default</th></tr>
 *   <tr><td>lazarus.nvm.dir</td><td>LAZARUS_NVM_DIR</td><td>/dev/shm/lazarus/nvm</td></tr>
 *   <tr><td>lazarus.job.id</td><td>LAZARUS_JOB_ID</td><td>the application name</td></tr>
 *   <tr><td>lazarus.nvm.heap.size</td><td>LAZARUS_HEAP_SIZE</td><td>what the application asks for</td></tr>
 *   <tr><td>lazarus.plan</td><td>LAZARUS_PLAN</td><td>none (persist nothing)</td></tr>
 *   <tr><td>lazarus.nvm.restart</td><td>LAZARUS_NVM_RESTART</td><td>auto (resume from NVM when possible; off =
 *       always start fresh)</td></tr>
 *   <tr><td>lazarus.easycrash</td><td>LAZARUS_EASYCRASH</td><td>on (off = the application's objects are plain Java
 *       arrays: no NVM heap, no bookmark, no restart; the plain program, to measure overheads against)</td></tr>
 * </table>
 */
public final class EasyCrashSettings {
    public static final String NVM_DIR = "lazarus.nvm.dir";
    public static final String JOB_ID = "lazarus.job.id";
    public static final String HEAP_SIZE = "lazarus.nvm.heap.size";
    public static final String PLAN = "lazarus.plan";
    public static final String RESTART = "lazarus.nvm.restart";
    public static final String EASYCRASH = "lazarus.easycrash";
    public static final String DEFAULT_NVM_DIR = "/dev/shm/lazarus/nvm";

    private final Properties properties;
    private final Map<String, String> environment;
    private Path nvmDirectory;
    private String jobId;
    private long heapSize;
    private Path planFile;
    private boolean restart;
    private boolean plainArrays;

    public EasyCrashSettings(Properties properties, Map<String, String> environment) {
        this.properties = properties;
        this.environment = environment;
    }

    /** Settings from this JVM's system properties and environment. */
    public static EasyCrashSettings fromSystem() {
        return new EasyCrashSettings(System.getProperties(), System.getenv());
    }

    private Optional<String> value(String property) {
        String fromProperty = properties.getProperty(property);
        if (fromProperty != null && !fromProperty.isBlank()) {
            return Optional.of(fromProperty.trim());
        }
        String env = "LAZARUS_" + switch (property) {
            case NVM_DIR -> "NVM_DIR";
            case JOB_ID -> "JOB_ID";
            case HEAP_SIZE -> "HEAP_SIZE";
            case PLAN -> "PLAN";
            case RESTART -> "NVM_RESTART";
            case EASYCRASH -> "EASYCRASH";
            default -> throw new IllegalStateException(property);
        };
        String fromEnv = environment.get(env);
        return fromEnv == null || fromEnv.isBlank() ? Optional.empty() : Optional.of(fromEnv.trim());
    }

    /**
     * Resolves and validates every setting.
     *
     * @param application     the application's name, the default job id
     * @param applicationHeap bytes the application needs, the default heap size
     * @throws IllegalArgumentException one line naming the bad setting
     */
    public EasyCrashSettings conclude(String application, long applicationHeap) {
        nvmDirectory = Path.of(value(NVM_DIR).orElse(DEFAULT_NVM_DIR)).toAbsolutePath();
        jobId = value(JOB_ID).orElse(application);
        String size = value(HEAP_SIZE).orElse(null);
        heapSize = size == null ? applicationHeap : parseBytes(size);
        if (heapSize < applicationHeap) {
            throw new IllegalArgumentException(HEAP_SIZE + "=" + size + " is smaller than the " + applicationHeap
                    + " bytes " + application + " needs");
        }
        planFile = value(PLAN).map(Path::of).orElse(null);
        String mode = value(RESTART).orElse("auto");
        if (!mode.equals("auto") && !mode.equals("off")) {
            throw new IllegalArgumentException(RESTART + "=" + mode + " must be auto or off");
        }
        restart = mode.equals("auto");
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
        String easyCrash = value(EASYCRASH).orElse("on");
        if (!easyCrash.equals("on") && !easyCrash.equals("off")) {
            throw new IllegalArgumentException(EASYCRASH + "=" + easyCrash + " must be on or off");
        }
        return easyCrash.equals("off");
    }
}
