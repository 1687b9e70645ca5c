package dev.lazarus.coordinator.launch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Copies MPJ's launcher's standard output to the user's line by line, without the rank JVMs' start-up notice
 * ({@link RankJvmNotice}): {@code mpjrun} forwards the rank JVM's standard error there, so the notice would reach the
 * terminal otherwise. Open MPI's mpirun keeps the streams apart, and its standard output stays inherited.
 */
final class LauncherOutputStream {
    private final Thread pump;

    private LauncherOutputStream(InputStream launcherOut, PrintStream out) {
        this.pump = Thread.ofPlatform().daemon().name("lazarus-launcher-stdout").start(() -> pump(launcherOut, out));
    }

    static LauncherOutputStream start(InputStream launcherOut, PrintStream out) {
        return new LauncherOutputStream(launcherOut, out);
    }

    private static void pump(InputStream launcherOut, PrintStream out) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(launcherOut, StandardCharsets.UTF_8))) {
            for (String line; (line = reader.readLine()) != null; ) {
                if (!RankJvmNotice.is(line)) {
                    out.println(line);
                }
            }
        } catch (IOException e) {
            // The launcher and every process holding the pipe are gone.
        }
        out.flush();
    }

    /** Waits (at most {@link LauncherErrorStream#DRAIN}) until everything the job printed has been copied. */
    void awaitEnd() throws InterruptedException {
        pump.join(LauncherErrorStream.DRAIN);
    }
}
