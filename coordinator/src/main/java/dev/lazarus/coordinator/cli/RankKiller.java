package dev.lazarus.coordinator.cli;

import dev.lazarus.coordinator.launch.LaunchWatcher;
import dev.lazarus.mpi.launch.HeartbeatFile;
import dev.lazarus.mpi.launch.HeartbeatFile.HeartbeatSnapshot;
import dev.lazarus.mpi.launch.RankProcesses;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * The demo's failure: once every rank has got {@code fraction} of the way through its main loop, one rank's JVM (an
 * Open MPI rank, or MPJ's JVM that runs all ranks as threads) is killed with SIGKILL, once, and the kill announced.
 *
 * <p>It reads the heartbeats on a thread of its own every few milliseconds rather than at the launcher's
 * {@link dev.lazarus.coordinator.launch.JobLauncher#WATCH_PERIOD}: the demo's main loop lasts about half a second, and
 * on a loaded machine a whole half of it can pass between two of the launcher's reads, so the kill would land after
 * the ranks verified (and then there is nothing to recover).
 */
final class RankKiller implements LaunchWatcher {
    private static final long POLL_NANOS = 5_000_000;

    private final int ranks;
    private final double fraction;
    private final PrintStream out;
    private volatile boolean done;

    RankKiller(int ranks, double fraction, PrintStream out) {
        this.ranks = ranks;
        this.fraction = fraction;
        this.out = out;
    }

    @Override
    public void watched(List<Optional<HeartbeatSnapshot>> heartbeats) {
        // The thread started with the launch reads the heartbeats itself.
    }

    @Override
    public void started(Path statusDirectory) {
        Thread.ofPlatform().daemon().name("lazarus-demo-killer").start(() -> {
            // The status directory goes when the launch ends; a kill is due only while it is there.
            while (!done && Files.isDirectory(statusDirectory)) {
                killIfDue(HeartbeatFile.readAll(statusDirectory, ranks));
                LockSupport.parkNanos(POLL_NANOS);
            }
        });
    }

    private void killIfDue(List<Optional<HeartbeatSnapshot>> heartbeats) {
        if (heartbeats.stream().anyMatch(b -> b.isEmpty() || !b.get().inMainLoop())) {
            return;
        }
        int slowest = heartbeats.stream().mapToInt(b -> b.orElseThrow().iteration()).min().orElse(0);
        int iterations = heartbeats.getFirst().orElseThrow().iterations();
        if (slowest < Math.max(1, (int) Math.ceil(fraction * iterations))) {
            return;
        }
        Optional<ProcessHandle> rank = RankProcesses.under(ProcessHandle.current()).stream().findFirst();
        if (rank.isPresent()) {
            done = true;
            out.println("lazarus demo: >>> SIGKILL to rank JVM " + rank.get().pid() + " in iteration " + slowest
                    + " of " + iterations + " <<<");
            rank.get().destroyForcibly();
        }
    }
}
