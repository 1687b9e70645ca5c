package dev.lazarus.coordinator.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.coordinator.launch.LaunchOutcome;
import dev.lazarus.mpi.launch.HeartbeatFile.HeartbeatSnapshot;
import dev.lazarus.mpi.launch.HeartbeatFile.Restore;
import dev.lazarus.mpi.launch.HeartbeatFile;
import dev.lazarus.recovery.policy.Level;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** What a launch's heartbeats teach the coordinator about restores: each level's read bandwidth and its time. */
class JobHistoryTest {
    private static final long GIB = 1L << 30;

    private static Optional<HeartbeatSnapshot> beat(Restore restored) {
        return Optional.of(new HeartbeatSnapshot("n1", System.currentTimeMillis(), 60, 51, 100, 100, true, false,
                true, true, false, restored, 2_000_000_000L, 0, new long[] {100_000_000L},
                List.of(), 0, HeartbeatFile.Incidents.NONE, 0, false, 0));
    }

    private static LaunchOutcome launchWith(Restore... restores) {
        return new LaunchOutcome(LaunchOutcome.Kind.SUCCEEDED, 0, List.of(), null,
                Arrays.stream(restores).map(JobHistoryTest::beat).toList(), 10.0);
    }

    /** The catalog lists version 50 as 1 GiB on L1 and 2 GiB on L3; nothing else. */
    private static OptionalLong catalog(Level level, long version) {
        return version != 50 ? OptionalLong.empty() : OptionalLong.of(level == Level.L3 ? 2 * GIB : GIB);
    }

    @Test
    void aRestoreMeasuresTheDeepestLevelsBandwidthOverTheSlowestRank() {
        JobHistory history = new JobHistory();
        // Rank 1's node lost its RAM disk: it read L1 after a rebuild from L2 (level 2) in 0.5 s, rank 0 L1 in 0.1 s.
        history.launched(launchWith(new Restore(50, 1, 100_000_000L), new Restore(50, 2, 500_000_000L)),
                0, JobHistoryTest::catalog);
        assertEquals(Map.of(Level.L2, GIB / 0.5), history.restoreBytesPerSecond());
        history.launched(launchWith(new Restore(50, 3, 1_000_000_000L), new Restore(50, 3, 4_000_000_000L)),
                0, JobHistoryTest::catalog);
        assertEquals(2 * GIB / 4.0, history.restoreBytesPerSecond().get(Level.L3), 1e-6, "2 GiB in the slowest 4 s");
        assertEquals(GIB / 0.5, history.restoreBytesPerSecond().get(Level.L2), 1e-6, "kept");
    }

    @Test
    void nothingIsMeasuredWithoutARestoreOrWithoutTheVersionsBytes() {
        JobHistory history = new JobHistory();
        history.launched(launchWith(Restore.NONE, Restore.NONE), 0, JobHistoryTest::catalog);
        history.launched(launchWith(new Restore(70, 1, 100_000_000L), new Restore(70, 1, 100_000_000L)),
                0, JobHistoryTest::catalog);
        history.launched(launchWith(new Restore(50, 1, 100_000_000L), new Restore(40, 1, 100_000_000L)),
                0, JobHistoryTest::catalog);
        assertTrue(history.restoreBytesPerSecond().isEmpty(), "no start from the beginning, a version the catalog"
                + " no longer lists or ranks that disagree measures a bandwidth: " + history.restoreBytesPerSecond());
    }

    @Test
    void anEarlierAllocationsMeasurementSeedsTheHistoryAndANewOneReplacesIt() {
        JobHistory history = new JobHistory();
        history.seed(0, 0, null, Map.of("L1", 3e9, "L7", 1.0, "L3", -1.0));
        assertEquals(Map.of(Level.L1, 3e9), history.restoreBytesPerSecond(), "unknown levels and nonsense dropped");
        history.launched(launchWith(new Restore(50, 1, 250_000_000L)), 0, JobHistoryTest::catalog);
        assertEquals(GIB / 0.25, history.restoreBytesPerSecond().get(Level.L1), 1e-6);
    }

    @Test
    void aLaunchThatRestoredSaysFromWhereAndHowLongItTook() {
        assertEquals(Optional.of("restored version 50 from L1 rebuilt from L2 in 0.500 s (slowest rank), set-up"
                        + " 2.000 s"),
                RecoveryTiming.of(launchWith(new Restore(50, 1, 100_000_000L), new Restore(50, 2, 500_000_000L))));
        assertEquals(Optional.empty(), RecoveryTiming.of(launchWith(Restore.NONE, Restore.NONE)), "a fresh start");
    }

    /** A rank's heartbeat at a launch's end: its last beat and when its main loop began (0: it never did). */
    private static Optional<HeartbeatSnapshot> timed(long lastBeatMillis, long mainLoopBeganMillis) {
        return Optional.of(new HeartbeatSnapshot("n1", lastBeatMillis, 60, 51, 100, 100, true, false, false, false,
                false, Restore.NONE, 0, 0, new long[] {100_000_000L}, List.of(), 0, HeartbeatFile.Incidents.NONE,
                0, false, mainLoopBeganMillis));
    }

    private static LaunchOutcome crashedWith(List<Optional<HeartbeatSnapshot>> beats) {
        return new LaunchOutcome(LaunchOutcome.Kind.CRASHED, 137, List.of(0, 1), null, beats, 10.0);
    }

    @Test
    void aFailuresDowntimeRunsFromTheFailedLaunchsLastBeatToTheNextLaunchsSlowestMainLoop() {
        JobHistory history = new JobHistory();
        history.launched(crashedWith(List.of(timed(1_000_000L, 990_000L), timed(1_000_400L, 990_000L))),
                0, JobHistoryTest::catalog);
        history.failed(new JobHistory.Failure(1, "rank crash", null, 50, 0));
        assertTrue(Double.isNaN(history.failures().getFirst().downSeconds()), "not back at work yet");
        // Rank 0 began its main loop at +3.6 s, rank 1 (the slowest) at +4.6 s after rank 1's last beat.
        history.launched(crashedWith(List.of(timed(1_010_000L, 1_004_000L), timed(1_010_000L, 1_005_000L))),
                0, JobHistoryTest::catalog);
        assertEquals(4.6, history.failures().getFirst().downSeconds(), 1e-9);
        history.failed(new JobHistory.Failure(2, "rank crash", null, 50, 0));
        // The third launch's rank 1 never reached its main loop: the second failure's downtime stays unknown.
        history.launched(crashedWith(List.of(timed(1_020_000L, 1_019_000L), Optional.empty())),
                0, JobHistoryTest::catalog);
        assertTrue(Double.isNaN(history.failures().get(1).downSeconds()), history.failures().toString());
        assertEquals(4.6, history.failures().getFirst().downSeconds(), 1e-9, "the first one's is kept");
    }

    @Test
    void aFailedLaunchWithoutAnySignOfLifeIsDownFromItsStart() {
        JobHistory history = new JobHistory();
        // Both ranks hung in their JVM's start: no heartbeat at all; the launch began at 1 000 s.
        history.launched(new LaunchOutcome(LaunchOutcome.Kind.HUNG, 137, List.of(0, 1), "rank 0 has given no sign of"
                + " life", List.of(Optional.empty(), Optional.empty()), 16.0), 1_000_000L, JobHistoryTest::catalog);
        history.failed(new JobHistory.Failure(1, "hang", null, 30, 0));
        history.launched(crashedWith(List.of(timed(1_030_000L, 1_019_000L), timed(1_030_000L, 1_020_500L))),
                1_016_000L, JobHistoryTest::catalog);
        assertEquals(20.5, history.failures().getFirst().downSeconds(), 1e-9);
    }
}
