package dev.lazarus.coordinator.job;

import dev.lazarus.coordinator.launch.LaunchOutcome;
import dev.lazarus.mpi.launch.HeartbeatFile.HeartbeatSnapshot;
import dev.lazarus.mpi.launch.HeartbeatFile.Restore;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How long a launch took to get back to work, from its ranks' heartbeats: the restore of a checkpoint version (the
 * slowest rank's, from the deepest level any rank read) or an NVM restart, and the whole set-up before the first
 * iteration (heaps attached and agreed, the restore, the application's initialization), the slowest rank's.
 */
final class RecoveryTiming {
    private static final String[] LEVELS = {"", "L1", "L1 rebuilt from L2", "L3"};

    private RecoveryTiming() {
    }

    /** @return one line for a launch that resumed from NVM or restored a version; empty for a fresh start */
    static Optional<String> of(LaunchOutcome outcome) {
        List<HeartbeatSnapshot> beats = outcome.heartbeats().stream().flatMap(Optional::stream)
                .filter(b -> b.lastBeatMillis() > 0).toList();
        if (beats.isEmpty()) {
            return Optional.empty();
        }
        double setUp = beats.stream().mapToLong(HeartbeatSnapshot::setUpNanos).max().orElseThrow() * 1e-9;
        Restore restore = Restore.ofLaunch(beats.stream().map(HeartbeatSnapshot::restored).toList());
        if (restore.any() && !beats.getFirst().rolledBack()) {
            return Optional.of(String.format(Locale.ROOT, "restored version %d from %s in %.3f s (slowest rank),"
                    + " set-up %.3f s", restore.version(), LEVELS[Math.clamp(restore.level(), 0, LEVELS.length - 1)],
                    restore.nanos() * 1e-9, setUp));
        }
        if (beats.stream().allMatch(HeartbeatSnapshot::resumedFromNvm) && !beats.getFirst().rolledBack()) {
            return Optional.of(String.format(Locale.ROOT, "NVM restart at iteration %d, set-up %.3f s (heaps"
                    + " attached and agreed, slowest rank)", beats.stream().mapToInt(HeartbeatSnapshot::firstIteration)
                    .min().orElseThrow(), setUp));
        }
        return Optional.empty();
    }
}
