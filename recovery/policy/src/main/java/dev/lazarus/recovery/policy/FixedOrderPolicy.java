package dev.lazarus.recovery.policy;

import dev.lazarus.store.level.l2.L2Scheme;

import java.util.ArrayList;
import java.util.List;

/**
 * Today's recovery order, in one place:
 * <ol>
 *   <li><b>NVM first.</b> When every rank has a consistent heap and bookmark, every rank resumes at the smallest
 *       bookmark (EasyCrash). One rank without state, or with state that must not be used, rolls every rank
 *       back.</li>
 *   <li><b>Then the newest checkpoint, verified before unverified</b> (recovery invariant 2): versions written from
 *       state no acceptance check has passed are taken only when no verified version can be restored.</li>
 *   <li><b>Per version, the cheapest level that holds it:</b> L1 where the rank's files survived; else L1 after the
 *       node's files were rebuilt from its L2 set (under XOR when it is the only node of its set lost, under PARTNER
 *       when its right neighbour, which holds its copy, survived); else L3. A version some rank cannot restore is
 *       passed over for the next older one.</li>
 *   <li><b>Else the beginning.</b></li>
 *   <li><b>A rejected NVM restart</b> rolls back: the versions it wrote are dropped, then the same order from step
 *       2.</li>
 * </ol>
 * It does not weigh costs: that comes with the coordinator's cost-based policy.
 */
public final class FixedOrderPolicy implements RecoveryPolicy {
    /** The one instance: the policy has no state. */
    public static final FixedOrderPolicy INSTANCE = new FixedOrderPolicy();

    private FixedOrderPolicy() {
    }

    @Override
    public StartDecision start(NvmFacts facts) {
        if (facts.anyUnusable()) {
            return new StartDecision(StartDecision.Path.ROLL_BACK, 0, facts.firstUnusable());
        }
        if (facts.anyFresh()) {
            return facts.anyResumable()
                    ? new StartDecision(StartDecision.Path.ROLL_BACK, 0,
                            "some ranks have no bookmark while others do: rolling back")
                    : new StartDecision(StartDecision.Path.START_FRESH, 0, facts.freshReason());
        }
        int low = facts.lowestBookmark();
        int high = facts.highestBookmark();
        return new StartDecision(StartDecision.Path.RESUME_FROM_NVM, low, low == high ? "bookmark at iteration " + low
                : "bookmarks disagree across ranks (iterations " + low + " to " + high + "): resuming every rank at "
                        + low);
    }

    @Override
    public List<VersionPass> versionPasses() {
        return List.of(VersionPass.VERIFIED_ONLY, VersionPass.ANY);
    }

    @Override
    public List<Level> levelOrder() {
        return List.of(Level.L1, Level.L2, Level.L3);
    }

    @Override
    public String whyNotRebuildable(L2Loss loss) {
        int first = loss.firstOfSet();
        List<String> names = loss.nodeNames();
        if (loss.scheme() == L2Scheme.PARTNER) {
            int partner = first + L2Scheme.partnerOf(loss.member(), loss.setSize());
            return !loss.nodeFailed().get(partner) ? null : "L2 cannot rebuild version " + loss.version()
                    + " of node " + names.get(loss.node()) + ": its partner " + names.get(partner)
                    + ", which holds its copy, is lost too";
        }
        List<String> lostInSet = new ArrayList<>();
        for (int other = first; other < first + loss.setSize(); other++) {
            if (loss.nodeFailed().get(other)) {
                lostInSet.add(names.get(other));
            }
        }
        return lostInSet.size() < 2 ? null : "L2 cannot rebuild version " + loss.version() + ": XOR set "
                + loss.setId() + " lost " + lostInSet.size() + " nodes " + lostInSet;
    }

    @Override
    public Rollback afterRejectedRestart(boolean levelsOn) {
        return new Rollback(true, levelsOn
                ? "restarting from the newest verified checkpoint, or the beginning"
                : "restarting from the beginning");
    }
}
