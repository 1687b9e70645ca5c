package dev.lazarus.mpi.launch;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Whether a process's environment holds one variable with one value ({@code /proc/PID/environ}, Linux): how
 * {@code lazarus run} finds its launch's processes, and how a node daemon makes sure the process a heartbeat names is
 * one of the launch's ranks before it kills it.
 */
public final class ProcessEnvironment {
    /** The most of a process's environment read. */
    static final int MAX_BYTES = 1 << 20;

    private ProcessEnvironment() {
    }

    /**
     * @return whether process {@code pid}'s environment has {@code variable=value}; false when it ended, is another
     *         user's, or its environment cannot be read
     */
    public static boolean has(long pid, String variable, String value) {
        byte[] wanted = (variable + "=" + value).getBytes(StandardCharsets.UTF_8);
        byte[] environ;
        try (InputStream in = Files.newInputStream(Path.of("/proc", Long.toString(pid), "environ"))) {
            environ = in.readNBytes(MAX_BYTES);
        } catch (IOException | SecurityException e) {
            return false;
        }
        for (int start = 0; start < environ.length; ) {
            int end = start;
            while (end < environ.length && environ[end] != 0) {
                end++;
            }
            if (Arrays.equals(environ, start, end, wanted, 0, wanted.length)) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }
}
