package dev.lazarus.coordinator.job;

import dev.lazarus.coordinator.launch.LaunchOutcome;
import dev.lazarus.coordinator.launch.LaunchWatcher;
import dev.lazarus.mpi.launch.HangWatch;
import dev.lazarus.mpi.launch.HeartbeatFile.HeartbeatSnapshot;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One launch as the node daemons watch it: when it starts, the job's state says which launch runs and where its
 * ranks' heartbeats are ({@link JobLedger#launching}); when it ends, a launch that a node daemon's hang kill ended is
 * a hang, not a crash.
 */
final class StartWatch implements LaunchWatcher {
    private final JobLedger ledger;
    private final HangWatch hangs;
    private volatile Path statusDirectory;

    StartWatch(JobLedger ledger, HangWatch hangs) {
        this.ledger = ledger;
        this.hangs = hangs;
    }

    @Override
    public void started(Path directory) {
        statusDirectory = directory;
        ledger.launching(directory, hangs);
    }

    @Override
    public void watched(List<Optional<HeartbeatSnapshot>> heartbeats) {
        // The launcher watches the heartbeats; the node daemons watch them on their nodes.
    }

    /**
     * @return {@code outcome}, or a hang when a node daemon found one of its ranks hung and killed it, which ended
     *         the launch (as a crash, to the launcher)
     */
    LaunchOutcome hangFoundByANodeDaemon(LaunchOutcome outcome) {
        if (statusDirectory == null || (outcome.kind() != LaunchOutcome.Kind.CRASHED
                && outcome.kind() != LaunchOutcome.Kind.FAILED)) {
            return outcome;
        }
        return ledger.hangFoundByANodeDaemon(statusDirectory).map(outcome::hungBecause).orElse(outcome);
    }
}
