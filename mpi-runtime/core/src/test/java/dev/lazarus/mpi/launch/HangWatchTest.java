package dev.lazarus.mpi.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.mpi.launch.HeartbeatFile.HeartbeatSnapshot;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A hung rank told from a slow one, with the timeout each case gets. */
class HangWatchTest {
    private static final long NOW = 1_000_000_000L;

    /** A rank in iteration {@code iteration} whose last beat was {@code ago} ms before NOW, iterations of {@code s}. */
    private static Optional<HeartbeatSnapshot> beat(int iteration, long ago, double s, boolean finished) {
        long[] durations = {(long) (s * 1e9), (long) (s * 1e9), (long) (s * 1e9)};
        return Optional.of(new HeartbeatSnapshot("n1", NOW - ago, iteration, 1, 100, 100, true, false, finished, false,
                false, HeartbeatFile.Restore.NONE, 0, 0, durations, List.of(), 0,
                HeartbeatFile.Incidents.NONE, NOW - 600_000, false, NOW - 600_000));
    }

    /** A rank still in its set-up, its last step {@code ago} ms before NOW. */
    private static Optional<HeartbeatSnapshot> inSetUp(long ago) {
        return Optional.of(new HeartbeatSnapshot("n1", 0, 0, 0, 0, 0, false, false, false, false, false,
                HeartbeatFile.Restore.NONE, 0, 0, new long[0], List.of(), 0, HeartbeatFile.Incidents.NONE, NOW - ago,
                false, 0));
    }

    @Test
    void theDerivedTimeoutIsTenMedianIterationsAndAtLeastAMinute() {
        HangWatch derived = new HangWatch(null);
        assertEquals(HangWatch.MINIMUM, derived.timeout(List.of(beat(3, 0, 0.5, false))));
        assertEquals(Duration.ofSeconds(120), derived.timeout(List.of(beat(3, 0, 2.0, false), beat(3, 0, 12.0,
                false))), "ten of the slowest rank's iterations");
        assertEquals(HangWatch.MINIMUM, derived.timeout(List.of(Optional.empty())));
        assertEquals(Duration.ofSeconds(5), new HangWatch(Duration.ofSeconds(5)).timeout(List.of(beat(3, 0, 12.0,
                false))), "--hang-timeout wins");
        assertEquals(Duration.ofSeconds(10), new HangWatch(Duration.ofSeconds(5)).behindNodeDaemons()
                .timeout(List.of(beat(3, 0, 12.0, false))), "behind node daemons: twice as patient");
        assertEquals(Duration.ofSeconds(240), derived.behindNodeDaemons().timeout(List.of(beat(3, 0, 12.0, false))));
    }

    @Test
    void theRankSilentLongestIsTheHungOne() {
        HangWatch watch = new HangWatch(Duration.ofSeconds(5));
        // Rank 1 stopped first; rank 0 waited for it in MPI and stopped beating a moment later.
        List<Optional<HeartbeatSnapshot>> beats = List.of(beat(8, 9_000, 0.1, false), beat(7, 9_500, 0.1, false),
                beat(8, 100, 0.1, false));
        assertEquals(Optional.of("rank 1 silent for 10 s in iteration 7 (hang timeout 5 s)"), watch.hung(beats, NOW));
        assertEquals(1, watch.hang(beats, NOW).orElseThrow().rank());
        // A node daemon watches its own node's ranks only: rank 1 elsewhere, its rank 0 is the one hung here.
        assertEquals(0, watch.hang(List.of(beats.get(0), Optional.empty(), beats.get(2)), NOW).orElseThrow().rank());
    }

    /**
     * A rank that never opened its heartbeat (stopped in its JVM's start or in MPI_Init) is hung once the set-up
     * timeout has passed since the launch began, for a watch that sees every rank; never for one that does not know
     * when the launch began (a node daemon's).
     */
    @Test
    void aRankWithoutAHeartbeatIsHungTheSetUpTimeoutAfterTheLaunch() {
        HangWatch watch = new HangWatch(Duration.ofSeconds(5));
        long setUp = HangWatch.SET_UP_MINIMUM.toMillis();
        List<Optional<HeartbeatSnapshot>> beats = List.of(inSetUp(setUp / 2), Optional.empty(), inSetUp(1_000));
        assertTrue(watch.hung(beats, NOW, NOW - setUp + 1_000).isEmpty(), "within the set-up timeout");
        assertEquals(Optional.of("rank 1 has given no sign of life 601 s after the launch began (JVM start or"
                + " MPI_Init; hang timeout outside the main loop 600 s)"), watch.hung(beats, NOW, NOW - setUp - 1_000));
        assertTrue(watch.hung(beats, NOW).isEmpty(), "a watch that does not know when the launch began");
        // A rank silent in its set-up for longer than the one without a heartbeat has been waited for is the one.
        List<Optional<HeartbeatSnapshot>> older = List.of(inSetUp(setUp + 5_000), Optional.empty());
        assertEquals(0, watch.hang(older, NOW).orElseThrow().rank());
        assertTrue(watch.hung(older, NOW, NOW - setUp - 1_000).orElseThrow().startsWith("rank 0 silent for 605 s"));
        // Behind node daemons, the coordinator waits twice as long for this too.
        assertTrue(watch.behindNodeDaemons().hung(beats, NOW, NOW - setUp - 1_000).isEmpty());
    }

    @Test
    void slowRanksRanksInSetUpAndFinishedRanksAreNotHung() {
        HangWatch watch = new HangWatch(Duration.ofSeconds(5));
        assertTrue(watch.hung(List.of(beat(8, 4_900, 0.1, false)), NOW).isEmpty(), "within the timeout");
        assertTrue(watch.hung(List.of(Optional.empty()), NOW).isEmpty(), "no heartbeat yet (JVM start)");
        assertTrue(watch.hung(List.of(inSetUp(60_000)), NOW).isEmpty(), "--hang-timeout is no measure of set-up");
        assertTrue(watch.hung(List.of(beat(100, 60_000, 0.1, true)), NOW).isEmpty(), "finished: verifying, exiting");
        assertEquals("--hang-timeout must be positive (got 0)",
                assertThrows(IllegalArgumentException.class, () -> new HangWatch(Duration.ZERO)).getMessage());
    }

    @Test
    void aRankSilentInItsSetUpIsHungAfterTheSetUpTimeout() {
        HangWatch watch = new HangWatch(Duration.ofSeconds(5));
        assertEquals(HangWatch.SET_UP_MINIMUM, watch.setUpTimeout(), "a timeout for iterations does not shorten it");
        assertEquals(Duration.ofMinutes(30), new HangWatch(Duration.ofMinutes(30)).setUpTimeout(), "but lengthens it");
        // Rank 1 stopped in a step of its set-up; rank 0 finished its steps and waits for it at the barrier.
        long minute = 60_000;
        List<Optional<HeartbeatSnapshot>> beats = List.of(inSetUp(11 * minute), inSetUp(12 * minute),
                Optional.empty());
        assertEquals(Optional.of("rank 1 silent for 720 s in its set-up, before its main loop (hang timeout outside"
                + " the main loop 600 s)"), watch.hung(beats, NOW));
        HangWatch derived = new HangWatch(null);
        assertEquals(HangWatch.SET_UP_MINIMUM, derived.setUpTimeout(), "no iteration time is known in set-up");
        assertTrue(derived.hung(List.of(inSetUp(HangWatch.SET_UP_MINIMUM.toMillis() - 1_000)), NOW).isEmpty(),
                "a long restore is not a hang");
        assertEquals(0, derived.hang(List.of(inSetUp(HangWatch.SET_UP_MINIMUM.toMillis() + 1_000)), NOW)
                .orElseThrow().rank());
        assertEquals(HangWatch.SET_UP_MINIMUM.multipliedBy(2), derived.behindNodeDaemons().setUpTimeout());
    }

    @Test
    void aSetUpTimeoutGivenReplacesTheDefaultBothWays() {
        HangWatch shorter = new HangWatch(Duration.ofMinutes(30), Duration.ofSeconds(20));
        assertEquals(Duration.ofSeconds(20), shorter.setUpTimeout(), "--setup-timeout wins over --hang-timeout");
        assertEquals(Duration.ofMinutes(30), shorter.timeout(List.of()), "and leaves the main loop's alone");
        assertEquals(Duration.ofSeconds(40), shorter.behindNodeDaemons().setUpTimeout());
        assertEquals(Duration.ofHours(2), new HangWatch(null, Duration.ofHours(2)).setUpTimeout());
        assertEquals(Optional.of("rank 0 silent for 21 s in its set-up, before its main loop (hang timeout outside"
                + " the main loop 20 s)"), shorter.hung(List.of(inSetUp(21_000)), NOW));
        assertTrue(shorter.hung(List.of(inSetUp(19_000)), NOW).isEmpty());
        assertEquals(Optional.of("rank 0 has given no sign of life 21 s after the launch began (JVM start or"
                + " MPI_Init; hang timeout outside the main loop 20 s)"),
                shorter.hung(List.of(Optional.empty()), NOW, NOW - 21_000));
        assertEquals("--setup-timeout must be positive (got 0)", assertThrows(IllegalArgumentException.class,
                () -> new HangWatch(null, Duration.ZERO)).getMessage());
    }

    @Test
    void aRankPastItsMainLoopGetsTheLongerTimeoutToo() {
        // The loop ended 60 s ago after its last beat; the rank verifies and waits for its last checkpoint's drain.
        long[] durations = {100_000_000L};
        Optional<HeartbeatSnapshot> finishing = Optional.of(new HeartbeatSnapshot("n1", NOW - 61_000, 100, 1, 100,
                100, true, false, false, false, false, HeartbeatFile.Restore.NONE, 0, 0, durations, List.of(), 0,
                HeartbeatFile.Incidents.NONE, NOW - 60_000, true, NOW - 600_000));
        assertTrue(!finishing.get().inMainLoop() && finishing.get().lastSignOfLifeMillis() == NOW - 60_000);
        HangWatch watch = new HangWatch(Duration.ofSeconds(5));
        assertTrue(watch.hung(List.of(finishing), NOW).isEmpty(), "the 5 s timeout is for iterations");
        assertEquals(Optional.of("rank 0 silent for 660 s after its main loop (hang timeout outside the main loop"
                + " 600 s)"), watch.hung(List.of(finishing), NOW + 600_000));
    }
}
