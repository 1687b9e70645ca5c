package dev.lazarus.npb.testing;

import dev.lazarus.easycrash.EasyCrashSettings;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/** EasyCrash settings that keep a test's persistent heaps in its own directory. */
public final class TestNvm {
    private TestNvm() {
    }

    /** Heaps under {@code directory}, job {@code jobId}; one instance per rank (settings are resolved per rank). */
    public static EasyCrashSettings settings(Path directory, String jobId) {
        Properties properties = new Properties();
        properties.setProperty(EasyCrashSettings.NVM_DIR, directory.toString());
        properties.setProperty(EasyCrashSettings.JOB_ID, jobId);
        return new EasyCrashSettings(properties, Map.of());
    }
}
