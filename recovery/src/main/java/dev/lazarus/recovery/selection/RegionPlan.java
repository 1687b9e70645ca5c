package dev.lazarus.recovery.selection;

import java.util.List;

/**
 * The outcome of region selection (paper §5.2, §5.3 step 3): where and how often to persist the critical objects, and
 * what that is predicted to give.
 *
 * <p>This is the analysis result; {@code dev.lazarus.easycrash.PersistencePlan} is the file a production run reads.
 * {@link #intervalsByRegion} gives the per-region "every" array that file holds.
 *
 * @param regions                 the selected regions, by index; empty when persisting nowhere is best
 * @param baselineRecomputability Y without persistence (Eq. 1)
 * @param predictedRecomputability Y' with this plan, weights renormalized for the added time (Eq. 2)
 * @param overhead                &Sigma; l_k: total persistence time as a fraction of the run time
 * @param overheadBudget          t_s, which {@code overhead} is strictly below (Eq. 3)
 * @param tau                     the recomputability the system-efficiency goal asks for (Eq. 4)
 */
public record RegionPlan(List<PlannedRegion> regions, double baselineRecomputability,
                              double predictedRecomputability, double overhead, double overheadBudget, double tau) {

    /** Keeps an immutable copy of the selected regions. */
    public RegionPlan {
        regions = List.copyOf(regions);
    }

    /** Whether Y' &gt; &tau; (Eq. 4): EasyCrash is then predicted to beat plain checkpoint/restart. */
    public boolean clearsTau() {
        return predictedRecomputability > tau;
    }

    /**
     * Interval per region index, 0 where the plan does not persist.
     *
     * @throws IllegalArgumentException for a negative count, or a planned region whose index is not below it
     */
    public long[] intervalsByRegion(int regionCount) {
        if (regionCount < 0) {
            throw new IllegalArgumentException("regionCount must be >= 0: regionCount=" + regionCount);
        }
        long[] intervals = new long[regionCount];
        for (PlannedRegion region : regions) {
            if (region.index() >= regionCount) {
                throw new IllegalArgumentException("plan names a region beyond the count: index=" + region.index()
                        + ", regionCount=" + regionCount);
            }
            intervals[region.index()] = region.interval();
        }
        return intervals;
    }
}
