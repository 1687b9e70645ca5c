package dev.lazarus.coordinator.launch;

import java.io.InputStream;
import java.io.PrintStream;

/**
 * Copies the standard output of MPJ's ranks' JVM to the launcher's {@code out} (the command line's, which tests
 * replace) line by line, without the rank JVMs' start-up notice ({@link RankJvmNotice}). Open MPI's mpirun's standard
 * output stays inherited.
 */
final class LauncherOutputStream {
    private final Thread pump;

    private LauncherOutputStream(InputStream launcherOut, PrintStream out) {
        this.pump = Thread.ofPlatform().daemon().name("lazarus-launcher-stdout")
                .start(() -> RankJvmNotice.copyWithout(launcherOut, out));
    }

    static LauncherOutputStream start(InputStream launcherOut, PrintStream out) {
        return new LauncherOutputStream(launcherOut, out);
    }

    /** Waits (at most {@link LauncherErrorStream#DRAIN}) until everything the job printed has been copied. */
    void awaitEnd() throws InterruptedException {
        pump.join(LauncherErrorStream.DRAIN);
    }
}
