package dev.lazarus.recovery.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.lazarus.store.level.l2.L2Scheme;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The fixed order as a decision table: each row is facts in, decision and reason out. */
class FixedOrderPolicyTest {
    private static final RecoveryPolicy POLICY = FixedOrderPolicy.INSTANCE;
    private static final List<String> NODES = List.of("n0", "n1", "n2", "n3", "n4", "n5");

    private static StartDecision start(boolean unusable, boolean fresh, boolean resumable, int low, int high) {
        return POLICY.start(new NvmFacts(unusable, unusable ? "rank 1: heap damaged" : null, fresh, resumable,
                "no NVM state of job=j", low, high));
    }

    @Test
    void nvmFirstWhenEveryRankHasABookmark() {
        assertEquals(new StartDecision(StartDecision.Path.RESUME_FROM_NVM, 7, "bookmark at iteration 7"),
                start(false, false, true, 7, 7));
        assertEquals(new StartDecision(StartDecision.Path.RESUME_FROM_NVM, 5, "bookmarks disagree across ranks"
                + " (iterations 5 to 9): resuming every rank at 5"), start(false, false, true, 5, 9));
    }

    @Test
    void oneRankWithoutUsableStateRollsEveryRankBack() {
        assertEquals(new StartDecision(StartDecision.Path.ROLL_BACK, 0, "rank 1: heap damaged"),
                start(true, true, true, 0, 0));
        assertEquals(new StartDecision(StartDecision.Path.ROLL_BACK, 0,
                "some ranks have no bookmark while others do: rolling back"), start(false, true, true, 0, 0));
        assertEquals(new StartDecision(StartDecision.Path.START_FRESH, 0, "no NVM state of job=j"),
                start(false, true, false, 0, 0));
    }

    @Test
    void verifiedVersionsBeforeUnverifiedAndLevelsCheapestFirst() {
        assertEquals(List.of(VersionPass.VERIFIED_ONLY, VersionPass.ANY), POLICY.versionPasses());
        assertEquals(List.of(Level.L1, Level.L2, Level.L3), POLICY.levelOrder());
    }

    private static L2Loss loss(L2Scheme scheme, int node, int member, int setSize, Boolean... failed) {
        return new L2Loss(8, node, NODES, List.of(failed), scheme, node / setSize, member, setSize);
    }

    @Test
    void xorRebuildsTheOnlyLostNodeOfASet() {
        assertNull(POLICY.whyNotRebuildable(loss(L2Scheme.XOR, 1, 1, 3, false, true, false, true, false, false)),
                "n3 is in the other set");
        assertEquals("L2 cannot rebuild version 8: XOR set 0 lost 2 nodes [n0, n2]", POLICY.whyNotRebuildable(
                loss(L2Scheme.XOR, 2, 2, 3, true, false, true, false, false, false)));
    }

    @Test
    void partnerRebuildsANodeWhoseRightNeighbourSurvived() {
        // Set of 6: member m's copy is held by m+1 (mod 6).
        assertNull(POLICY.whyNotRebuildable(loss(L2Scheme.PARTNER, 1, 1, 6, true, true, false, false, false, false)),
                "n1's copy is on n2; n0 lost too does not matter");
        assertEquals("L2 cannot rebuild version 8 of node n5: its partner n0, which holds its copy, is lost too",
                POLICY.whyNotRebuildable(loss(L2Scheme.PARTNER, 5, 5, 6, true, false, false, false, false, true)));
    }

    @Test
    void aRejectedRestartDropsWhatItWroteAndRollsBack() {
        assertEquals(new Rollback(true, "restarting from the newest verified checkpoint, or the beginning"),
                POLICY.afterRejectedRestart(true));
        assertEquals(new Rollback(true, "restarting from the beginning"), POLICY.afterRejectedRestart(false));
    }

    @Test
    void aLossOutsideTheNodeListIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> loss(L2Scheme.XOR, 1, 0, 6, false, true, false, false, false, false));
        assertEquals("L2 loss of node=1 member=0 setSize=6 outside the 6 nodes", e.getMessage());
    }
}
