package dev.lazarus.mpi.launch;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/**
 * What {@code /proc} says of a process (Linux), read whole: whether its environment holds one variable with one value
 * (how {@code lazarus run} finds its launch's processes, and how a node daemon makes sure the process a heartbeat
 * names is one of the launch's ranks before it kills it), its command line, and whether it ended. {@link ProcessHandle.Info#commandLine}
 * stops at a page, and a rank's class path easily fills one before its main class.
 */
public final class ProcFiles {
    /** The most of a process's environment or command line read. */
    static final int MAX_BYTES = 1 << 20;

    private ProcFiles() {
    }

    /**
     * @return process {@code pid}'s command line, its words joined by spaces; empty when it ended, is another user's,
     *         or has none (a kernel thread)
     */
    public static Optional<String> commandLine(long pid) {
        byte[] line = read(pid, "cmdline");
        if (line.length == 0) {
            return Optional.empty();
        }
        int end = line[line.length - 1] == 0 ? line.length - 1 : line.length;
        for (int i = 0; i < end; i++) {
            if (line[i] == 0) {
                line[i] = ' ';
            }
        }
        return Optional.of(new String(line, 0, end, StandardCharsets.UTF_8));
    }

    /**
     * @return whether process {@code pid}'s environment has {@code variable=value}; false when it ended, is another
     *         user's, or its environment cannot be read
     */
    public static boolean environmentHas(long pid, String variable, String value) {
        byte[] wanted = (variable + "=" + value).getBytes(StandardCharsets.UTF_8);
        byte[] environ = read(pid, "environ");
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

    /**
     * Whether process {@code pid} has ended: it is gone, or it is a zombie that nobody has reaped yet (its state in
     * {@code /proc/PID/stat} is {@code Z} or {@code X}). A rank whose {@code mpirun} died is re-parented to init, and
     * an init that reaps seldom (a container's) leaves it a zombie that {@link ProcessHandle#isAlive} calls alive.
     */
    public static boolean ended(long pid) {
        byte[] stat = read(pid, "stat");
        if (stat.length == 0) {
            return true;
        }
        // "pid (comm) S ...": the command may hold spaces and parentheses, so the state follows the last ')'.
        for (int i = stat.length - 1; i > 0; i--) {
            if (stat[i] == ')') {
                int state = i + 2 < stat.length ? stat[i + 2] : 'X';
                return state == 'Z' || state == 'X';
            }
        }
        return false;
    }

    /** @return {@code /proc/PID/FILE}, at most {@link #MAX_BYTES}; nothing when it cannot be read */
    private static byte[] read(long pid, String file) {
        try (InputStream in = Files.newInputStream(Path.of("/proc", Long.toString(pid), file))) {
            return in.readNBytes(MAX_BYTES);
        } catch (IOException | SecurityException e) {
            return new byte[0];
        }
    }
}
