package dev.lazarus.recovery.campaign;

import dev.lazarus.easycrash.EasyCrashSettings;
import dev.lazarus.easycrash.Recomputable;
import dev.lazarus.easycrash.RecomputableApplication;
import dev.lazarus.mpi.Comm;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.function.Supplier;

/**
 * The application a campaign crashes: a factory (each test needs a fresh instance) and its arguments, usually
 * {@code --class S --quiet}. Campaign runs are single-rank and in-process, like NVCT's.
 *
 * @param name      the application's name
 * @param factory   makes a new, unprepared instance
 * @param arguments the application's arguments
 */
public record CampaignTarget(String name, Supplier<? extends RecomputableApplication> factory, String[] arguments) {
    /** Job id of every campaign heap: restarts must match the header the traced run wrote. */
    static final String JOB = "campaign";

    public CampaignTarget {
        arguments = arguments.clone();
    }

    Recomputable prepare(Comm comm) {
        return factory.get().prepare(comm, arguments);
    }

    /** EasyCrash settings for a campaign heap in {@code nvm}, with an optional plan file. */
    static EasyCrashSettings settings(Path nvm, Path planFile, boolean restart) {
        Properties p = new Properties();
        p.setProperty(EasyCrashSettings.NVM_DIR, nvm.toString());
        p.setProperty(EasyCrashSettings.JOB_ID, JOB);
        p.setProperty(EasyCrashSettings.RESTART, restart ? "auto" : "off");
        if (planFile != null) {
            p.setProperty(EasyCrashSettings.PLAN, planFile.toString());
        }
        return new EasyCrashSettings(p, Map.of());
    }
}
