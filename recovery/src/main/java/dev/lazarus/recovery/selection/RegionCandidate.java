package dev.lazarus.recovery.selection;

import java.util.ArrayList;
import java.util.List;

/**
 * A code region as input to region selection (paper §5.2): its weight, its recomputability with and without
 * persistence, and how often it could persist.
 *
 * @param name              the region's name, for the plan
 * @param weight            a_k, the region's share of execution time, in [0, 1]
 * @param baseline          c_k, recomputability with nothing persisted (campaign of step 1), in [0, 1]
 * @param best              c_k^max, recomputability with the critical objects persisted at every persistence point
 *                          (campaign of step 3), in [0, 1]
 * @param persistencePoints how many times per run the region would persist at interval 1: for a loop region the
 *                          number of its loop iterations over the whole run, otherwise the number of times the region
 *                          runs; at least 1
 * @param loop              whether the region is a loop; only a loop may persist every x-th iteration with x &gt; 1
 */
public record RegionCandidate(String name, double weight, double baseline, double best, long persistencePoints,
                              boolean loop) {

    /**
     * Validates the region.
     *
     * @throws IllegalArgumentException for a blank name, a weight or recomputability outside [0, 1], or fewer than one
     *                                  persistence point
     */
    public RegionCandidate {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("region name must not be blank: name=" + name);
        }
        requireFraction("weight", name, weight);
        requireFraction("baseline", name, baseline);
        requireFraction("best", name, best);
        if (persistencePoints < 1) {
            throw new IllegalArgumentException("persistencePoints must be >= 1: region=" + name
                    + ", persistencePoints=" + persistencePoints);
        }
    }

    private static void requireFraction(String key, String region, double value) {
        if (!(value >= 0.0 && value <= 1.0)) {
            throw new IllegalArgumentException(key + " must be in [0, 1]: region=" + region + ", " + key + "="
                    + value);
        }
    }

    /**
     * Combines the same region from the two campaigns: a_k and c_k from the campaign without persistence, c_k^max from
     * the one that persisted the critical objects at every persistence point of every region. The stats are those of
     * the region whose crashes the persistence point serves, which need not be the one named: a persistence point at
     * a region's end serves crashes in the region after it.
     *
     * @throws IllegalArgumentException if the two stats are for different regions
     */
    public static RegionCandidate of(String name, RegionStats baseline, RegionStats persisted, long persistencePoints,
                                     boolean loop) {
        if (baseline.index() != persisted.index()) {
            throw new IllegalArgumentException("campaign stats are for different regions: baseline="
                    + baseline.index() + ", persisted=" + persisted.index());
        }
        return new RegionCandidate(name, baseline.weight(), baseline.recomputability(), persisted.recomputability(),
                persistencePoints, loop);
    }

    /**
     * The persistence intervals x the selector may choose: 1, 2, 4, ... up to {@link #persistencePoints} for a loop,
     * only 1 otherwise (paper §5.2: a region without a loop persists at its end or not at all). Powers of two keep
     * the choice small while still spanning every overhead level within a factor of two.
     */
    public List<Long> intervals() {
        List<Long> intervals = new ArrayList<>();
        intervals.add(1L);
        if (loop) {
            for (long x = 2; x <= persistencePoints && x > 0; x *= 2) {
                intervals.add(x);
            }
        }
        return List.copyOf(intervals);
    }

    /**
     * c_k^x by Eq. 5: (c_k^max - c_k) / x + c_k, a linear interpolation between persisting every time (x = 1) and
     * never (x &rarr; &infin;).
     *
     * @throws IllegalArgumentException for x &lt; 1
     */
    public double recomputabilityAt(long interval) {
        requireInterval(interval);
        return (best - baseline) / interval + baseline;
    }

    /**
     * How many persistence operations a run performs at interval x: persistencePoints / x. It is not rounded, so it
     * is the average rate whatever the phase of the counter.
     *
     * @throws IllegalArgumentException for x &lt; 1
     */
    public double operationsAt(long interval) {
        requireInterval(interval);
        return (double) persistencePoints / interval;
    }

    private void requireInterval(long interval) {
        if (interval < 1) {
            throw new IllegalArgumentException("persistence interval must be >= 1: region=" + name + ", interval="
                    + interval);
        }
    }
}
