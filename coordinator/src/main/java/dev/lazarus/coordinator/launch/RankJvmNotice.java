package dev.lazarus.coordinator.launch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The line a rank JVM prints at start-up because Lazarus resolves the Vector API ({@code --add-modules
 * jdk.incubator.vector}, one of {@link JobLauncher#RANK_JVM_FLAGS}): {@code WARNING: Using incubator modules:
 * jdk.incubator.vector}. The JDK has no option to silence it, and it says nothing the user can act on, so the places
 * that read a rank JVM's standard error drop it (as Elasticsearch does for the same line).
 */
public final class RankJvmNotice {
    /** The notice exactly as JDK 25 prints it. */
    static final String INCUBATOR = "WARNING: Using incubator modules: jdk.incubator.vector";

    private RankJvmNotice() {
    }

    /** Whether {@code line} (without its line terminator) is the notice. */
    public static boolean is(String line) {
        return INCUBATOR.equals(line);
    }

    /**
     * Copies {@code from} to {@code to} line by line without the notice, until {@code from} ends (its writers are
     * gone), then flushes {@code to}.
     */
    public static void copyWithout(InputStream from, PrintStream to) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(from, StandardCharsets.UTF_8))) {
            for (String line; (line = reader.readLine()) != null; ) {
                if (!is(line)) {
                    to.println(line);
                }
            }
        } catch (IOException e) {
            // The writing processes are gone; what they wrote has been copied.
        }
        to.flush();
    }
}
