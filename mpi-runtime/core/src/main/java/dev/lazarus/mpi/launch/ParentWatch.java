package dev.lazarus.mpi.launch;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Ends a rank JVM whose parent process has ended. MPJ's starter JVM runs the ranks in a JVM of their own; when the
 * starter dies (SIGKILLed, or killed with Lazarus by {@code setpriv --pdeathsig}) nothing else would stop that JVM,
 * and it would go on computing and writing the job's files after the launch ended. Open MPI's ranks end with their
 * daemon already; the watch costs them one look at {@code /proc/self/stat} per {@link #POLL}.
 */
public final class ParentWatch {
    /** How often the parent is checked. */
    public static final Duration POLL = Duration.ofMillis(500);
    /** Exit status of a rank JVM ended because its parent ended, as for a process killed by SIGHUP. */
    public static final int ORPHANED = 129;

    private static final AtomicBoolean STARTED = new AtomicBoolean();

    private ParentWatch() {
    }

    /**
     * Starts watching this JVM's parent, once per JVM (MPJ multicore runs every rank's main in one JVM). A JVM that
     * Lazarus launched ({@link ExitStatusFiles#ENV} set) and that is a child of init already lost its parent before
     * it could watch it, and ends at once; one started by init otherwise (a container's first process) is not
     * watched.
     */
    public static void start() {
        long parent = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(0L);
        if (parent == 1 && System.getenv(ExitStatusFiles.ENV) != null) {
            orphaned(parent);
        }
        if (parent <= 1 || !STARTED.compareAndSet(false, true)) {
            return;
        }
        Thread.ofPlatform().daemon().name("lazarus-parent-watch").start(() -> watch(parent));
    }

    private static void watch(long parent) {
        try {
            while (ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L) == parent) {
                Thread.sleep(POLL);
            }
        } catch (InterruptedException e) {
            return;
        }
        orphaned(parent);
    }

    private static void orphaned(long parent) {
        System.err.println("lazarus: the process that started this rank JVM (pid " + parent
                + ") ended; the ranks end with it");
        // halt, not exit: the ranks' own shutdown would wait in collectives for ranks that no longer exist.
        Runtime.getRuntime().halt(ORPHANED);
    }
}
