package dev.lazarus.coordinator.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.coordinator.launch.Backend;
import dev.lazarus.coordinator.launch.HostLoss;
import dev.lazarus.coordinator.launch.LaunchOutcome;
import dev.lazarus.coordinator.launch.LaunchPlan;
import dev.lazarus.coordinator.launch.LaunchRequest;
import dev.lazarus.mpi.launch.HangWatch;
import dev.lazarus.mpi.launch.HeartbeatFile.HeartbeatSnapshot;
import dev.lazarus.mpi.launch.HeartbeatFile;
import dev.lazarus.mpi.launch.LaunchDirective;
import dev.lazarus.recovery.policy.failure.RecoveryMode;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The coordinator's loop over scripted launches: which failures it recovers from, what it tells the next launch, when
 * it gives up, and what it prints. Two ranks, 100 iterations of 0.1 s, set-up 1 s; no checkpoints, so a rollback is
 * the beginning: W(0) = 100 x 0.1 + 0.1 (the verification, unmeasured, estimated as an iteration) + 1 = 11.1 s.
 */
class JobCoordinatorTest {
    private static final LaunchPlan PLAN = new LaunchPlan(new LaunchRequest(2, Backend.OPENMPI, null, null, null,
            List.of(), List.of(), "npb.CG", List.of(), null), List.of("true"), Map.of());

    private final ByteArrayOutputStream text = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(text, true, StandardCharsets.UTF_8);
    private final List<LaunchDirective> directives = new ArrayList<>();

    private static Optional<HeartbeatSnapshot> beat(int iteration, boolean resumed, boolean finished,
                                                    boolean accepted, boolean rolledBack) {
        return beat(iteration, resumed, finished, accepted, rolledBack, List.of());
    }

    private static Optional<HeartbeatSnapshot> beat(int iteration, boolean resumed, boolean finished,
                                                    boolean accepted, boolean rolledBack,
                                                    List<HeartbeatFile.Held> held) {
        return beat(iteration, resumed, finished, accepted, rolledBack, held, HeartbeatFile.Incidents.NONE);
    }

    private static Optional<HeartbeatSnapshot> beat(int iteration, boolean resumed, boolean finished,
                                                    boolean accepted, boolean rolledBack,
                                                    List<HeartbeatFile.Held> held, HeartbeatFile.Incidents incidents) {
        return beatAt(System.currentTimeMillis(), iteration, resumed, finished, accepted, rolledBack, held, incidents);
    }

    private static Optional<HeartbeatSnapshot> beatAt(long now, int iteration, boolean resumed, boolean finished,
                                                      boolean accepted, boolean rolledBack,
                                                      List<HeartbeatFile.Held> held,
                                                      HeartbeatFile.Incidents incidents) {
        long[] tenth = {100_000_000L, 100_000_000L, 100_000_000L};
        return Optional.of(new HeartbeatSnapshot("n1", now, iteration, 1, 100, 100, true,
                resumed, finished, accepted, rolledBack, HeartbeatFile.Restore.NONE, 1_000_000_000L, 0, tenth, held, 0,
                incidents, 0, false, now));
    }

    private static LaunchOutcome crashedAt(int iteration) {
        return new LaunchOutcome(LaunchOutcome.Kind.CRASHED, 1, List.of(0, 1), null,
                List.of(beat(iteration, false, false, false, false), beat(iteration, false, false, false, false)),
                5.0);
    }

    /**
     * A launch that ran to a verified end. Its ranks' beats are dated ten seconds ahead: the script is made before the
     * run, and a relaunch's main loop must begin after the failed launch's start for its downtime to be measured (the
     * same millisecond was a race on a slow machine).
     */
    private static LaunchOutcome succeeded(boolean resumed) {
        long later = System.currentTimeMillis() + 10_000;
        Optional<HeartbeatSnapshot> beat = beatAt(later, 100, resumed, true, true, false, List.of(),
                HeartbeatFile.Incidents.NONE);
        return new LaunchOutcome(LaunchOutcome.Kind.SUCCEEDED, 0, List.of(), null, List.of(beat, beat), 5.0);
    }

    private int run(JobOptions options, LaunchOutcome... script) throws Exception {
        Deque<LaunchOutcome> outcomes = new ArrayDeque<>(List.of(script));
        return new JobCoordinator((plan, directive, hangs, halts, watcher) -> {
            directives.add(directive);
            return outcomes.removeFirst();
        }, options, err).run(PLAN);
    }

    /**
     * Runs the script on hosts that report {@code losses} after successive failures; a plan that loses an unreachable
     * node is replaced while {@code spares} last, and each launch's plan is noted.
     */
    private int runOnHosts(JobOptions options, List<HostLoss> losses, int spares, List<LaunchPlan> plans,
                           LaunchOutcome... script) throws Exception {
        return runOnHosts(options, losses, spares, false, plans, script);
    }

    /** As above; with {@code survivors}, an unreachable node without a spare leaves its ranks to the nodes left. */
    private int runOnHosts(JobOptions options, List<HostLoss> losses, int spares, boolean survivors,
                           List<LaunchPlan> plans, LaunchOutcome... script) throws Exception {
        Deque<LaunchOutcome> outcomes = new ArrayDeque<>(List.of(script));
        Deque<HostLoss> surveys = new ArrayDeque<>(losses);
        int[] left = {spares};
        JobHosts hosts = new JobHosts() {
            @Override
            public HostLoss survey() {
                return surveys.isEmpty() ? HostLoss.NONE : surveys.removeFirst();
            }

            @Override
            public boolean replaceable(HostLoss loss) {
                return loss.unreachable().size() <= left[0] || survivors;
            }

            @Override
            public boolean movesRanks(HostLoss loss) {
                return loss.unreachable().size() > left[0] && survivors;
            }

            @Override
            public Optional<LaunchPlan> next(LaunchPlan plan, HostLoss loss) {
                if (loss.unreachable().isEmpty()) {
                    return Optional.of(plan);
                }
                if (movesRanks(loss)) {
                    return Optional.of(new LaunchPlan(plan.request(), List.of("survivors"), Map.of()));
                }
                left[0] -= loss.unreachable().size();
                return left[0] < 0 ? Optional.empty() : Optional.of(new LaunchPlan(plan.request(),
                        List.of("spare", Integer.toString(left[0])), Map.of()));
            }
        };
        return new JobCoordinator((plan, directive, hangs, halts, watcher) -> {
            directives.add(directive);
            plans.add(plan);
            return outcomes.removeFirst();
        }, options, new JobDescription("job", "npb.CG", List.of(), 2, List.of("n1", "n2", "n3")), null,
                StateCluster.atFirstFailure(null), hosts,
                err).run(PLAN);
    }

    private static HostLoss lost(boolean reachable, int... nodes) {
        List<HostLoss.LostHost> lost = new ArrayList<>();
        for (int node : nodes) {
            lost.add(new HostLoss.LostHost(node, "n" + (node + 1), reachable, reachable ? "crashed" : "is gone"));
        }
        return new HostLoss(lost, 2);
    }

    private static JobOptions options(int maxRestarts, RecoveryMode mode, Double planned) {
        return new JobOptions(maxRestarts, mode, new HangWatch(null), RestoreSources.none(), planned, true);
    }

    private String printed() {
        return text.toString(StandardCharsets.UTF_8);
    }

    /**
     * A rank killed while the ranks released their levels, after the collective verdict accepted the result: the
     * result stands. A relaunch could only start over (the other ranks' checkpoints may be gone already).
     */
    @Test
    void aRankThatDiesAfterEveryRanksResultWasVerifiedIsNotRelaunched() throws Exception {
        LaunchOutcome diedReleasing = new LaunchOutcome(LaunchOutcome.Kind.CRASHED, 137, List.of(1), null,
                List.of(beat(100, false, true, true, false), beat(100, false, false, true, false)), 5.0);
        assertEquals(0, run(options(10, RecoveryMode.AUTO, 0.9), diedReleasing));
        assertEquals(1, directives.size(), "no relaunch");
        assertTrue(printed().contains("lazarus: rank crash (ranks [1] without a status) after every rank's result was"
                + " verified, while the ranks released their NVM state and levels: the result stands, no relaunch"),
                printed());
        // One rank without the verdict: the job failed before its result was verified, and is relaunched.
        directives.clear();
        LaunchOutcome diedVerifying = new LaunchOutcome(LaunchOutcome.Kind.CRASHED, 137, List.of(1), null,
                List.of(beat(100, false, true, true, false), beat(100, false, false, false, false)), 5.0);
        assertEquals(0, run(options(10, RecoveryMode.AUTO, 0.9), diedVerifying, succeeded(true)));
        assertEquals(2, directives.size(), "relaunched");
    }

    @Test
    void aCrashIsRecoveredFromNvmWithoutAPerson() throws Exception {
        // R 0.9 (plan): NVM at 90 = 10 x 0.1 + 0.1 + 0.1 x 11.1 = 2.21 < 11.1 (the start every relaunch pays is
        // left out of every path; only the beginning pays its fresh set-up of 1 s).
        assertEquals(0, run(options(10, RecoveryMode.AUTO, 0.9), crashedAt(90), succeeded(true)));
        // The ranks also hear the coordinator's estimates, for --ckpt-every auto: no MTBF before a failure, then the
        // 5 s the first launch ran per failure; R the plan's 0.9.
        assertEquals(List.of(LaunchDirective.none().withEstimates(Double.NaN, 0.9),
                LaunchDirective.none().withEstimates(5.0, 0.9)), directives);
        String out = printed();
        assertTrue(out.contains("lazarus: failure 1: rank crash (ranks [0, 1] without a status) at iteration 90 of"
                + " 100: NVM restart at 90 2.2 s"), out);
        assertTrue(out.contains("-> NVM restart at 90 [cheapest]"), out);
        assertTrue(out.contains("lazarus: relaunch 1 of at most 10: NVM restart at 90"), out);
        assertTrue(out.contains("lazarus: launch 2: NVM restart at iteration 1, set-up 1.000 s"), out);
        assertTrue(out.matches("(?s).*lazarus: summary: 2 launches, 1 failures \\{rank crash=1}, 0\\.0 s of work done"
                + " again, \\d+\\.\\d s down; result: verified \\(exit status 0\\).*"), out);
        assertTrue(out.matches("(?s).*lazarus:   launch 1: rank crash -> NVM restart at 90, decided in \\d+ ms, back at"
                + " work after \\d+\\.\\d s, 0\\.0 s of work again.*"), out);
    }

    /**
     * A lost node took its NVM with it: however recomputable the application, the relaunch rolls back, on a spare in
     * the node's place when it does not answer; a node that crashed and answers again keeps its place.
     */
    @Test
    void aLostNodeIsANodeLossThatRollsBackOnASpare() throws Exception {
        List<LaunchPlan> plans = new ArrayList<>();
        assertEquals(0, runOnHosts(options(10, RecoveryMode.AUTO, 0.99), List.of(lost(false, 1), lost(true, 0)), 1,
                plans, crashedAt(90), crashedAt(95), succeeded(false)));
        String out = printed();
        assertTrue(out.contains("lazarus: failure 1: node loss (node n2 lost; ranks [0, 1] without a status) at"
                + " iteration 90 of 100"), out);
        assertFalse(out.contains("-> NVM restart"), out);
        assertTrue(directives.get(1).rollBack() && directives.get(2).rollBack(), directives.toString());
        // The spare's plan from the first loss on; the crashed node that answers again needs none.
        assertEquals(List.of(PLAN.command(), List.of("spare", "0"), List.of("spare", "0")),
                plans.stream().map(LaunchPlan::command).toList());
        assertTrue(out.contains("lazarus: summary: 3 launches, 2 failures {node loss=2}"), out);
    }

    /**
     * A second node lost a moment after the first: the relaunch on the spare cannot start (the launcher reaches the
     * second node no more), and that is a node loss too, recovered on the second spare, not the job's end. With every
     * node answering, a relaunch that does not start ends the job, as a first launch does.
     */
    @Test
    void aRelaunchThatCannotStartOnALostNodeIsANodeLossToo() throws Exception {
        List<LaunchPlan> plans = new ArrayList<>();
        LaunchOutcome notStarted = new LaunchOutcome(LaunchOutcome.Kind.NOT_STARTED, 255, List.of(0, 1), null,
                List.of(Optional.empty(), Optional.empty()), 1.0);
        assertEquals(0, runOnHosts(options(10, RecoveryMode.AUTO, 0.99), List.of(lost(false, 0), lost(false, 1)), 2,
                plans, crashedAt(90), notStarted, succeeded(false)));
        String out = printed();
        assertTrue(out.contains("lazarus: launch 2 could not start its ranks: a node was lost since the last failure"),
                out);
        assertTrue(out.contains("lazarus: failure 2: node loss"), out);
        assertEquals(List.of(PLAN.command(), List.of("spare", "1"), List.of("spare", "0")),
                plans.stream().map(LaunchPlan::command).toList());
        assertTrue(directives.get(2).rollBack(), directives.toString());

        directives.clear();
        plans.clear();
        assertEquals(255, runOnHosts(options(10, RecoveryMode.AUTO, 0.99), List.of(lost(false, 0)), 2, plans,
                crashedAt(90), notStarted));
        assertEquals(2, directives.size(), "every node answers: the job ends");
    }

    /**
     * On several nodes the coordinator weighs L1 from what the ranks' heartbeats list (it cannot read their RAM
     * disks): rank 0 holds versions 40, 60 and 80, rank 1 only 60 and 80, 0.25 GB each; every node wrote its L2
     * parity of 60, rank 0's node not yet of 80. A rank crash restores L1 v80 (4 GB/s: 0.125 s for the 0.5 GB, 2.2 s
     * with the 20 iterations left and the verification). A node loss cannot read L1 alone and v80 cannot be rebuilt
     * yet, so L2 v60 (1.6 GB/s until measured: 0.3 s, 4.4 s in all), still far below the beginning's 11.1 s.
     */
    /**
     * A crash of a launch in which a rank's L1 had no room is classified as disk full; a version a rank found corrupt
     * is said once and not offered again: the same crash as below restores L1 v60, not the corrupt v80.
     */
    @Test
    void aFullLevelMakesADiskFullFailureAndACorruptVersionIsNotOfferedAgain() throws Exception {
        JobOptions options = new JobOptions(10, RecoveryMode.AUTO, new HangWatch(null), new RestoreSources(
                new CheckpointDirectory(Path.of("/nonexistent/l1"), "cg"), null, false), 0.0, true);
        List<HeartbeatFile.Held> held = List.of(held(60, true), held(80, true));
        LaunchOutcome crashed = new LaunchOutcome(LaunchOutcome.Kind.CRASHED, 1, List.of(0, 1), null,
                List.of(beat(90, false, false, false, false, held, new HeartbeatFile.Incidents(0, 0, 1, 80)),
                        beat(90, false, false, false, false, held, new HeartbeatFile.Incidents(1, 90, 0, 0))), 5.0);
        assertEquals(0, runOnHosts(options, List.of(), 0, new ArrayList<>(), crashed, succeeded(false)));
        String out = printed();
        assertTrue(out.contains("lazarus: failure 1: disk full (L1 had no room for version 90 of rank 1 on node n1;"
                + " ranks [0, 1] without a status)"), out);
        assertEquals(1, out.split("lazarus: corrupt checkpoint: rank 0 found version 80 on L1 corrupt \\(it failed"
                + " its checksum\\) and restored an older one; it is not offered again", -1).length - 1, out);
        assertFalse(out.contains("L1 v80"), out);
        assertTrue(out.contains("-> L1 v60 [cheapest]"), out);
        assertTrue(out.contains("1 failures {disk full=1}"), out);
    }

    @Test
    void onSeveralNodesL1IsWhatTheHeartbeatsListAndANodeLossRebuildsItFromL2() throws Exception {
        JobOptions options = new JobOptions(10, RecoveryMode.AUTO, new HangWatch(null), new RestoreSources(
                new CheckpointDirectory(Path.of("/nonexistent/l1"), "cg"), null, false), 0.0, true);
        LaunchOutcome crashed = new LaunchOutcome(LaunchOutcome.Kind.CRASHED, 1, List.of(0, 1), null,
                List.of(beat(90, false, false, false, false, List.of(held(40, true), held(60, true), held(80, false))),
                        beat(90, false, false, false, false, List.of(held(60, true), held(80, true)))), 5.0);
        List<LaunchPlan> plans = new ArrayList<>();
        assertEquals(0, runOnHosts(options, List.of(), 0, plans, crashed, succeeded(false)));
        assertTrue(printed().contains("-> L1 v80 [cheapest]"), printed());
        assertEquals(80, directives.get(1).restoreAtMost(), "the ranks restore the version chosen");
        assertTrue(printed().contains("L1 v80 2.2 s (restore 0.1 s + 20 it x 0.1 s"), printed());
        assertFalse(printed().contains("L1 v40"), "rank 1 does not hold v40: " + printed());
        assertFalse(printed().contains("L2 v"), "no node lost, no rebuild: " + printed());
        text.reset();
        assertEquals(0, runOnHosts(options, List.of(lost(true, 1)), 0, plans, crashed, succeeded(false)));
        assertTrue(printed().contains("L2 v60 4.4 s (restore 0.3 s + 40 it x 0.1 s"), printed());
        assertFalse(printed().contains("L2 v80"), "a version without every node's parity: " + printed());
        assertTrue(printed().contains("-> L2 v60 [cheapest]"), printed());
        LaunchDirective relaunch = directives.getLast();
        assertTrue(relaunch.rollBack() && relaunch.l2Rebuild() && relaunch.restoreAtMost() == 60, relaunch.toString());
    }

    private static HeartbeatFile.Held held(long version, boolean parity) {
        return new HeartbeatFile.Held(version, 250_000_000L, true, parity);
    }

    @Test
    void aNodeThatDoesNotAnswerWithNoSpareLeftEndsTheJob() throws Exception {
        List<LaunchPlan> plans = new ArrayList<>();
        assertEquals(1, runOnHosts(options(10, RecoveryMode.AUTO, 0.99), List.of(lost(false, 2)), 0, plans,
                crashedAt(50)));
        assertEquals(1, plans.size());
        assertTrue(printed().contains("lazarus: giving up: no node is left to run the lost nodes' ranks"), printed());
        assertFalse(printed().contains("failure 1:"), "nothing is decided for a job that cannot go on: " + printed());
    }

    @Test
    void aNodeThatDoesNotAnswerWithNoSpareLeftLeavesItsRanksToTheOthersWithoutAnL2Rebuild() throws Exception {
        JobOptions options = new JobOptions(10, RecoveryMode.AUTO, new HangWatch(null), new RestoreSources(
                new CheckpointDirectory(Path.of("/nonexistent/l1"), "cg"), null, false), 0.0, true);
        LaunchOutcome crashed = new LaunchOutcome(LaunchOutcome.Kind.CRASHED, 1, List.of(0, 1), null,
                List.of(beat(90, false, false, false, false, List.of(held(60, true), held(80, true))),
                        beat(90, false, false, false, false, List.of(held(60, true), held(80, true)))), 5.0);
        List<LaunchPlan> plans = new ArrayList<>();
        assertEquals(0, runOnHosts(options, List.of(lost(false, 1)), 0, true, plans, crashed, succeeded(false)));
        assertEquals(List.of("survivors"), plans.getLast().command(), "the next launch runs on the nodes left");
        // The L2 sets change with the node count: no set rebuilds the moved ranks' files, so L2 is not weighed.
        assertFalse(printed().contains("L2 v"), printed());
        assertTrue(printed().contains("-> beginning [cheapest]"), printed());
        LaunchDirective relaunch = directives.getLast();
        assertTrue(relaunch.rollBack() && relaunch.restoreAtMost() == LaunchDirective.BEGINNING, relaunch.toString());
    }

    @Test
    void twoLostNodesOfOneL2SetAreClassifiedSo() throws Exception {
        List<LaunchPlan> plans = new ArrayList<>();
        assertEquals(0, runOnHosts(options(10, RecoveryMode.NVM, 0.99), List.of(lost(true, 0, 1)), 0, plans,
                crashedAt(50), succeeded(false)));
        String out = printed();
        assertTrue(out.contains("lazarus: nodes [n1, n2] of one L2 set were lost: no rebuild brings their L1 files"
                + " back"), out);
        assertTrue(out.contains("failure 1: two nodes lost in one L2 set (nodes [n1, n2] lost;"), out);
        // --recovery nvm cannot take NVM that is gone: the beginning.
        assertTrue(directives.get(1).rollBack(), directives.toString());
        // Nodes 0 and 2 are in different sets of two: a node loss, each rebuilt from its own set.
        text.reset();
        assertEquals(0, runOnHosts(options(10, RecoveryMode.AUTO, 0.99), List.of(lost(true, 0, 2)), 0, plans,
                crashedAt(50), succeeded(false)));
        assertTrue(printed().contains("failure 1: node loss (nodes [n1, n3] lost;"), printed());
    }

    @Test
    void aLowRecomputabilityRollsBackAndTellsTheRanksSo() throws Exception {
        // R 0.05: NVM = 1.1 + 0.95 x 11.1 = 11.6 > 11.1: the beginning.
        assertEquals(0, run(options(10, RecoveryMode.AUTO, 0.05), crashedAt(90), succeeded(false)));
        assertTrue(directives.get(1).rollBack(), directives.toString());
        assertTrue(directives.get(1).reason().startsWith("beginning expected 11.1 s"), directives.toString());
        assertEquals(LaunchDirective.BEGINNING, directives.get(1).restoreAtMost(), "nothing to restore");
        assertTrue(printed().contains("lazarus:   launch 1: rank crash -> beginning, decided in"), printed());
        assertTrue(printed().contains(", 9.0 s of work again"), "90 iterations of 0.1 s again: " + printed());
    }

    @Test
    void aRejectedResultBadInputATimeoutAndAJobThatNeverStartedAreTheJobsStatus() throws Exception {
        for (LaunchOutcome.Kind kind : List.of(LaunchOutcome.Kind.FAILED, LaunchOutcome.Kind.TIMED_OUT,
                LaunchOutcome.Kind.NOT_STARTED)) {
            directives.clear();
            LaunchOutcome outcome = new LaunchOutcome(kind, 7, List.of(), null, List.of(), 1.0);
            assertEquals(7, run(options(10, RecoveryMode.AUTO, null), outcome), kind.name());
            assertEquals(1, directives.size(), kind + " is not relaunched");
        }
        assertFalse(printed().contains("summary"), "no failure, no summary: " + printed());
    }

    @Test
    void itGivesUpAfterMaxRestarts() throws Exception {
        assertEquals(1, run(options(2, RecoveryMode.AUTO, 0.9), crashedAt(10), crashedAt(20), crashedAt(30)));
        assertEquals(3, directives.size());
        assertTrue(printed().contains("lazarus: giving up: rank crash after 2 restart(s) (--max-restarts)"),
                printed());
        assertTrue(printed().contains("lazarus: summary: 3 launches, 2 failures"), printed());
    }

    @Test
    void twoCrashesBeforeTheMainLoopEndTheJob() throws Exception {
        LaunchOutcome early = new LaunchOutcome(LaunchOutcome.Kind.CRASHED, 1, List.of(1), null,
                List.of(Optional.empty(), Optional.empty()), 0.5);
        assertEquals(1, run(options(10, RecoveryMode.AUTO, null), early, early));
        assertEquals(2, directives.size());
        assertTrue(printed().contains("failure 1: rank crash before any rank reached its main loop -> relaunch as"
                + " before"), printed());
        assertTrue(printed().contains("giving up: the job failed before its main loop in two launches in a row"),
                printed());
    }

    @Test
    void aHangIsKilledAndRecoveredAndAThrowingRestartRollsBack() throws Exception {
        LaunchOutcome hung = new LaunchOutcome(LaunchOutcome.Kind.HUNG, 1, List.of(0, 1),
                "rank 1 silent for 61 s in iteration 50 (hang timeout 60 s)",
                List.of(beat(50, false, false, false, false), beat(50, false, false, false, false)), 70.0);
        LaunchOutcome threw = new LaunchOutcome(LaunchOutcome.Kind.NVM_ATTEMPT_FAILED, 3, List.of(), null,
                List.of(beat(51, true, false, false, false), beat(51, true, false, false, false)), 2.0);
        assertEquals(0, run(options(10, RecoveryMode.AUTO, 0.9), hung, threw, succeeded(false)));
        assertFalse(directives.get(1).rollBack(), "after the hang: NVM restart");
        assertTrue(directives.get(2).rollBack(), "after the NVM restart threw: never NVM again for that failure");
        assertTrue(printed().contains("lazarus: failure 1: hang (rank 1 silent for 61 s in iteration 50 (hang"
                + " timeout 60 s)) at iteration 50"), printed());
        assertTrue(printed().contains("{hang=1, rank crash=1}"), printed());
    }

    /** Recovery invariant 3: an NVM restart that threw gets its one rolled-back relaunch even with no restarts. */
    @Test
    void aThrowingRestartIsRelaunchedOnceEvenWithNoRestartsLeft() throws Exception {
        LaunchOutcome threw = new LaunchOutcome(LaunchOutcome.Kind.NVM_ATTEMPT_FAILED, 3, List.of(), null,
                List.of(beat(51, true, false, false, false), beat(51, true, false, false, false)), 2.0);
        assertEquals(0, run(options(0, RecoveryMode.AUTO, 0.9), threw, succeeded(false)));
        assertTrue(directives.get(1).rollBack(), directives.toString());
        assertTrue(printed().contains("lazarus: relaunching the job once: its NVM restart failed and was recorded"),
                printed());
        assertTrue(printed().contains("lazarus: relaunch 1 of at most 1: "), printed());
        directives.clear();
        assertEquals(3, run(options(0, RecoveryMode.AUTO, 0.9), threw, threw), "the relaunch threw too: give up");
        assertEquals(2, directives.size());
        assertTrue(printed().contains("lazarus: giving up: the relaunch failed its recovery attempt too"), printed());
    }

    @Test
    void recoveryRollbackNeverResumesFromNvm() throws Exception {
        assertEquals(0, run(options(10, RecoveryMode.ROLLBACK, 1.0), crashedAt(99), succeeded(false)));
        assertTrue(directives.get(1).rollBack());
        assertTrue(printed().contains("[--recovery rollback]"), printed());
    }
}
