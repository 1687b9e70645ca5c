package dev.lazarus.coordinator.cli;

import dev.lazarus.coordinator.launch.LaunchWatcher;
import dev.lazarus.mpi.launch.HeartbeatFile.HeartbeatSnapshot;
import dev.lazarus.mpi.launch.RankProcesses;

import java.io.PrintStream;
import java.util.List;
import java.util.Optional;

/**
 * The demo's failure: once every rank has got {@code fraction} of the way through its main loop, one rank's JVM (an
 * Open MPI rank, or MPJ's JVM that runs all ranks as threads) is killed with SIGKILL, once, and the kill announced.
 */
final class RankKiller implements LaunchWatcher {
    private final double fraction;
    private final PrintStream out;
    private boolean done;

    RankKiller(double fraction, PrintStream out) {
        this.fraction = fraction;
        this.out = out;
    }

    @Override
    public void watched(List<Optional<HeartbeatSnapshot>> heartbeats) {
        if (done || heartbeats.stream().anyMatch(Optional::isEmpty)) {
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
