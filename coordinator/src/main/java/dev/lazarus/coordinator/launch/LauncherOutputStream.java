package dev.lazarus.coordinator.launch;

import java.io.InputStream;
import java.io.PrintStream;

/**
 * Copies MPJ's launcher's standard output to the user's line by line, without the rank JVMs' start-up notice
 * ({@link RankJvmNotice}): {@code mpjrun} forwards the rank JVM's standard error there, so the notice would reach the
 * terminal otherwise. Open MPI's mpirun keeps the streams apart, and its standard output stays inherited.
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
