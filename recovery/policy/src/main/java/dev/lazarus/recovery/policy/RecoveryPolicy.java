package dev.lazarus.recovery.policy;

import java.util.List;

/**
 * Decides how a job recovers. Every method is a pure function of the facts it is given, so that every rank, given the
 * same facts, comes to the same decision, and so that a test can state a decision table.
 */
public interface RecoveryPolicy {

    /** @return how every rank starts, from what NVM held on every rank */
    StartDecision start(NvmFacts facts);

    /**
     * @return which versions a checkpoint restart tries, in order: each pass tries the newest version of its kind
     *         first and older ones after it
     */
    List<VersionPass> versionPasses();

    /** @return the levels a rank tries one version from, in order */
    List<Level> levelOrder();

    /**
     * @return why the lost node's L2 set cannot rebuild its files of the version, or null if it can
     */
    String whyNotRebuildable(L2Loss loss);

    /** @return what follows an NVM restart whose result the acceptance verification rejected */
    Rollback afterRejectedRestart(boolean levelsOn);
}
