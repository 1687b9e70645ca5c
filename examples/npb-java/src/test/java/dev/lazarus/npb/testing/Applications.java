package dev.lazarus.npb.testing;

import dev.lazarus.easycrash.RecomputableApplication;
import dev.lazarus.mpi.launch.ApplicationCatalog;

import java.util.List;

/** The applications registered on the test class path, found as the launcher finds them. */
public final class Applications {
    private static final ApplicationCatalog CATALOG = new ApplicationCatalog(Applications.class.getClassLoader());

    private Applications() {
    }

    /** Names of the registered applications, sorted. */
    public static List<String> names() {
        return CATALOG.names();
    }

    /** A new instance of application {@code name} (kernels keep per-run state, so every rank needs its own). */
    public static RecomputableApplication instance(String name) {
        return (RecomputableApplication) CATALOG.resolve(name);
    }
}
