package dev.lazarus.coordinator.launch;

import dev.lazarus.mpi.launch.ProcFiles;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every process one launch started: the launcher process ({@code mpirun}, or the JVM running MPJ's
 * {@code starter.jar}), its descendants, and every process that carries the launch's environment mark.
 *
 * <p>A process whose parent dies is re-parented to init and no longer shows under the launcher: when MPJ's starter
 * JVM is SIGKILLed, the rank JVM it started runs on under init. Two ways find such processes. The descendants are
 * recorded every {@link #POLL} while the launcher runs, which catches every process that lived that long, even one
 * already exiting when the launch ends (it has no environment left to read). And the mark, one {@code NAME=value}
 * environment entry unique to the launch that every process of the job inherits, is looked for when the launch
 * ends, which catches the processes started since the last poll. {@link #killAll} kills every process of the launch
 * still alive and waits a bounded time for them, so every process a launch starts ends when the launch ends.
 */
final class JobProcessTree implements AutoCloseable {
    /** How long {@link #killAll} waits for killed processes to end before giving up on them. */
    static final Duration KILL_WAIT = Duration.ofSeconds(5);

    /** How often {@link #awaitEnd} looks whether the processes it waits for have ended. */
    static final Duration END_POLL = Duration.ofMillis(10);

    /** How often the launcher's descendants are recorded while it runs. */
    static final Duration POLL = Duration.ofMillis(200);

    private final Process launcher;
    private final String markName;
    private final String markValue;
    private final Set<ProcessHandle> recorded = ConcurrentHashMap.newKeySet();
    private final Thread recorder;

    private JobProcessTree(Process launcher, String markName, String markValue) {
        this.launcher = launcher;
        this.markName = markName;
        this.markValue = markValue;
        this.recorder = Thread.ofPlatform().daemon().name("lazarus-job-processes").start(this::record);
    }

    private void record() {
        try {
            while (launcher.isAlive()) {
                launcher.descendants().forEach(recorded::add);
                Thread.sleep(POLL);
            }
        } catch (InterruptedException e) {
            // closed: killAll takes the last look itself
        }
    }

    /**
     * Starts {@code builder}'s command with the environment entry {@code name=value} added.
     *
     * @param value unique to this launch (no other process on the machine may carry the same entry)
     */
    static JobProcessTree start(ProcessBuilder builder, String name, String value) throws IOException {
        builder.environment().put(name, value);
        return new JobProcessTree(builder.start(), name, value);
    }

    /** @return the launcher process this tree was started with */
    Process launcher() {
        return launcher;
    }

    /** @return the processes of this launch alive now, the launcher first */
    List<ProcessHandle> alive() {
        Set<ProcessHandle> found = new LinkedHashSet<>();
        found.add(launcher.toHandle());
        found.addAll(recorded);
        launcher.descendants().forEach(found::add);
        ProcessHandle self = ProcessHandle.current();
        ProcessHandle.allProcesses().filter(p -> !p.equals(self) && isMarked(p.pid())).forEach(found::add);
        return found.stream().filter(JobProcessTree::running).toList();
    }

    private static boolean running(ProcessHandle process) {
        return process.isAlive() && !ProcFiles.ended(process.pid());
    }

    private boolean isMarked(long pid) {
        // Ended meanwhile, or another user's: not started by this launch.
        return ProcFiles.environmentHas(pid, markName, markValue);
    }

    /**
     * Gives the processes of this launch {@code grace} to end by themselves (a rank JVM may still be exiting when its
     * launcher has returned), then {@link #killAll}s what is left.
     *
     * @return how many processes had to be killed
     */
    int killAllAfter(Duration grace) {
        awaitEnd(alive(), System.nanoTime() + grace.toNanos());
        return killAll();
    }

    /**
     * SIGKILLs every process of this launch still alive (the launcher first, so it starts nothing new) and waits up
     * to {@link #KILL_WAIT} for them to end.
     *
     * @return how many processes were alive
     */
    int killAll() {
        List<ProcessHandle> alive = alive();
        int count = alive.size();
        long deadline = System.nanoTime() + KILL_WAIT.toNanos();
        while (!alive.isEmpty() && System.nanoTime() < deadline) {
            alive.forEach(ProcessHandle::destroyForcibly);
            if (!awaitEnd(alive, deadline)) {
                break; // SIGKILL cannot be refused; what is left is a process stuck in the kernel, beyond our reach
            }
            alive = alive(); // a process may have started a child before it was killed
        }
        return count;
    }

    /**
     * Waits until every one of {@code processes} has ended, or {@code deadline} ({@link System#nanoTime}) has passed.
     * Polled rather than {@link ProcessHandle#onExit}: most of a launch's processes are not this JVM's children (the
     * ranks are the launcher's), and the JDK watches a process that is not a child by sleeping 300 ms, then 330 ms
     * and so on between looks, which kept a failed launch's end from being seen for up to two seconds after its
     * ranks were gone. A zombie counts as ended ({@link ProcFiles#ended}).
     *
     * @return whether they all ended; {@code false} at the deadline or when interrupted (the interrupt is kept)
     */
    static boolean awaitEnd(List<ProcessHandle> processes, long deadline) {
        while (processes.stream().anyMatch(JobProcessTree::running)) {
            if (System.nanoTime() >= deadline) {
                return false;
            }
            try {
                Thread.sleep(END_POLL);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** Stops recording and {@link #killAll}s, quietly. */
    @Override
    public void close() {
        recorder.interrupt();
        killAll();
    }
}
