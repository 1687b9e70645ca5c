package dev.lazarus.recovery.policy.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.recovery.policy.Level;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The decision table, with every expected time computed by hand. The run: 100 iterations of 1 s, verification 2 s,
 * set-up 5 s; the failure came in iteration 60; NVM's bookmark is 59 and its restart takes 0.5 s; version 50 is on
 * L1 (restore 1 s), on L1 after an L2 rebuild (2 s) and on L3 (4 s). Work left from p: W(p) = (100 - p) + 2.
 */
class CostBasedDecisionTest {
    private static final double EPS = 1e-9;

    private static final VersionOption L1_V50 = new VersionOption(Level.L1, 50, 1.0, true);
    private static final VersionOption L2_V50 = new VersionOption(Level.L2, 50, 2.0, true);
    private static final VersionOption L3_V50 = new VersionOption(Level.L3, 50, 4.0, true);

    private static FailureFacts facts(FailureClass failure, int maxIterations, double r,
                                      List<VersionOption> versions) {
        NvmOption nvm = new NvmOption(true, 59, 0.5, new Recomputability(r, "test"), null);
        return new FailureFacts(failure, "rank 1 on node n2", 60, 100, maxIterations, 1.0, 2.0, 5.0, nvm, versions);
    }

    private static List<String> order(RecoveryDecision decision) {
        return decision.ranked().stream().map(CostedPath::name).toList();
    }

    @Test
    void aRecomputableApplicationResumesFromNvm() {
        // NVM: 0.5 + W(59) = 43.5, + (1 - 0.9) x (no extra + L1 v50 = 1 + W(50) = 53) = 48.8.
        RecoveryDecision d = CostBasedDecision.decide(facts(FailureClass.RANK_CRASH, 100, 0.9,
                List.of(L1_V50, L3_V50)), RecoveryMode.AUTO);
        assertEquals(CostedPath.Kind.NVM_RESTART, d.chosen().kind());
        assertEquals(59, d.chosen().iteration());
        assertEquals(48.8, d.chosen().expectedSeconds(), EPS);
        assertEquals(List.of("NVM restart at 59", "L1 v50", "L3 v50", "beginning"), order(d));
        assertEquals(List.of(48.8, 53.0, 56.0, 107.0),
                d.ranked().stream().map(CostedPath::expectedSeconds).toList());
    }

    @Test
    void aLowRecomputabilityGoesStraightToRollback() {
        // NVM: 43.5 + 0.9 x 53 = 91.2 > L1 v50's 53.
        RecoveryDecision d = CostBasedDecision.decide(facts(FailureClass.RANK_CRASH, 100, 0.1,
                List.of(L1_V50, L3_V50)), RecoveryMode.AUTO);
        assertEquals("L1 v50", d.chosen().name());
        assertEquals(List.of("L1 v50", "L3 v50", "NVM restart at 59", "beginning"), order(d));
        assertEquals(91.2, d.ranked().get(2).expectedSeconds(), EPS);
    }

    @Test
    void extraIterationsAfterARejectionCountAgainstNvm() {
        // maxIterations 200: a rejected restart also runs 100 extra iterations, each verified: 100 x (1 + 2) = 300.
        // NVM: 43.5 + 0.1 x (300 + 53) = 78.8 > 53.
        RecoveryDecision d = CostBasedDecision.decide(facts(FailureClass.RANK_CRASH, 200, 0.9,
                List.of(L1_V50)), RecoveryMode.AUTO);
        assertEquals("L1 v50", d.chosen().name());
        assertEquals(78.8, d.ranked().get(1).expectedSeconds(), EPS);
    }

    @Test
    void aHangLeavesNvmAndL1AsACrashDoes() {
        RecoveryDecision d = CostBasedDecision.decide(facts(FailureClass.HANG, 100, 0.9, List.of(L1_V50)),
                RecoveryMode.AUTO);
        assertEquals(CostedPath.Kind.NVM_RESTART, d.chosen().kind());
    }

    @Test
    void aLostNodeRulesOutNvmAndL1() {
        RecoveryDecision d = CostBasedDecision.decide(facts(FailureClass.NODE_LOSS, 100, 1.0,
                List.of(L1_V50, L2_V50, L3_V50)), RecoveryMode.AUTO);
        // L2 rebuild: 2 + 52 = 54; L3: 56.
        assertEquals(List.of("L2 v50", "L3 v50", "beginning"), order(d));
        assertEquals(54.0, d.chosen().expectedSeconds(), EPS);
    }

    @Test
    void twoNodesLostInOneSetLeaveL3() {
        RecoveryDecision d = CostBasedDecision.decide(facts(FailureClass.L2_SET_LOST, 100, 1.0,
                List.of(L1_V50, L2_V50, L3_V50)), RecoveryMode.AUTO);
        assertEquals(List.of("L3 v50", "beginning"), order(d));
    }

    @Test
    void unusableHeapsAndNoVersionLeaveTheBeginning() {
        FailureFacts facts = new FailureFacts(FailureClass.RANK_CRASH, "rank 0", 60, 100, 100, 1.0, 2.0, 5.0,
                NvmOption.unusable("rank 1: heap damaged"), List.of());
        RecoveryDecision d = CostBasedDecision.decide(facts, RecoveryMode.AUTO);
        assertEquals(List.of("beginning"), order(d));
        assertEquals(107.0, d.chosen().expectedSeconds(), EPS);
        assertEquals("beginning", CostBasedDecision.decide(facts, RecoveryMode.NVM).chosen().name(),
                "--recovery nvm falls back to the cheapest rollback when NVM cannot serve");
    }

    @Test
    void aRejectedRestartRollsBackToVerifiedVersionsOnly() {
        // An unverified v55 on L1 (1 + 47 = 48) is a rollback of its own, but after a rejection only verified v50
        // counts: NVM = 43.5 + 0.1 x 53 = 48.8, so v55 is cheapest.
        VersionOption unverified = new VersionOption(Level.L1, 55, 1.0, false);
        RecoveryDecision d = CostBasedDecision.decide(facts(FailureClass.RANK_CRASH, 100, 0.9,
                List.of(unverified, L1_V50)), RecoveryMode.AUTO);
        assertEquals(List.of("L1 v55", "NVM restart at 59", "L1 v50", "beginning"), order(d));
        assertEquals(48.0, d.chosen().expectedSeconds(), EPS);
        assertTrue(d.ranked().get(1).detail().contains("L1 v50 53.0 s"), d.ranked().get(1).detail());
    }

    @Test
    void theModeOverridesTheCost() {
        FailureFacts lowR = facts(FailureClass.RANK_CRASH, 100, 0.1, List.of(L1_V50));
        assertEquals(CostedPath.Kind.NVM_RESTART, CostBasedDecision.decide(lowR, RecoveryMode.NVM).chosen().kind());
        FailureFacts highR = facts(FailureClass.RANK_CRASH, 100, 0.9, List.of(L1_V50));
        assertEquals("L1 v50", CostBasedDecision.decide(highR, RecoveryMode.ROLLBACK).chosen().name());
    }

    @Test
    void theLogLineCarriesTheFailureEveryPathAndTheChoice() {
        String line = CostBasedDecision.decide(facts(FailureClass.RANK_CRASH, 100, 0.9, List.of(L1_V50)),
                RecoveryMode.AUTO).logLine();
        assertTrue(line.startsWith("rank crash (rank 1 on node n2) at iteration 60 of 100: NVM restart at 59 48.8 s"),
                line);
        assertTrue(line.contains(" < L1 v50 53.0 s (restore 1.0 s + 50 it x 1.0 s + verify 2.0 s; loses 10 it)"), line);
        assertTrue(line.endsWith("-> NVM restart at 59 [cheapest]"), line);
    }

    @Test
    void recomputabilityLearnsFromTheJobsOwnRestarts() {
        assertEquals(0.9, Recomputability.estimate(0.9, 0, 0).value(), EPS);
        // (0.9 x 8 + 0) / (8 + 2)
        assertEquals(0.72, Recomputability.estimate(0.9, 2, 0).value(), EPS);
        // (0.5 x 2 + 3) / (2 + 4)
        Recomputability noPlan = Recomputability.estimate(null, 4, 3);
        assertEquals(4.0 / 6.0, noPlan.value(), EPS);
        assertEquals("no plan, 3/4 restarts of this job accepted", noPlan.source());
        assertThrows(IllegalArgumentException.class, () -> Recomputability.estimate(1.5, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> Recomputability.estimate(null, 1, 2));
    }

    @Test
    void impossibleFactsAreRefused() {
        NvmOption nvm = NvmOption.unusable("none");
        assertThrows(IllegalArgumentException.class, () -> new FailureFacts(FailureClass.RANK_CRASH, "r", 1, 10, 5,
                1.0, 0.0, 0.0, nvm, List.of()));
        assertThrows(IllegalArgumentException.class, () -> new FailureFacts(FailureClass.RANK_CRASH, "r", 1, 10, 10,
                Double.NaN, 0.0, 0.0, nvm, List.of()));
        assertThrows(IllegalArgumentException.class, () -> new FailureFacts(FailureClass.RANK_CRASH, "r", 1, 10, 10,
                1.0, 0.0, 0.0, nvm, List.of(new VersionOption(Level.L1, 11, 1.0, true))));
        assertEquals(RecoveryMode.ROLLBACK, RecoveryMode.parse("Rollback"));
        assertEquals("--recovery must be auto, nvm or rollback (got 'fast')",
                assertThrows(IllegalArgumentException.class, () -> RecoveryMode.parse("fast")).getMessage());
    }
}
