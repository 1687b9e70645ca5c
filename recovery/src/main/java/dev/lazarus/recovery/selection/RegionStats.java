package dev.lazarus.recovery.selection;

/**
 * One code region as a crash-test campaign saw it (paper §5.2).
 *
 * @param index      0-based region index
 * @param weight     a_k: the region's share of the accumulated execution time, in [0, 1]
 * @param tests      how many crash tests hit the region
 * @param recomputed how many of those ended {@link CrashTestOutcome#S1}
 */
public record RegionStats(int index, double weight, int tests, int recomputed) {

    /**
     * Validates the counts and the weight.
     *
     * @throws IllegalArgumentException for a negative index or count, more recomputed tests than tests, or a weight
     *                                  outside [0, 1]
     */
    public RegionStats {
        if (index < 0) {
            throw new IllegalArgumentException("region index must be >= 0: index=" + index);
        }
        if (!(weight >= 0.0 && weight <= 1.0)) {
            throw new IllegalArgumentException("region weight must be in [0, 1]: index=" + index + ", weight="
                    + weight);
        }
        if (tests < 0 || recomputed < 0 || recomputed > tests) {
            throw new IllegalArgumentException("region counts must satisfy 0 <= recomputed <= tests: index=" + index
                    + ", tests=" + tests + ", recomputed=" + recomputed);
        }
    }

    /**
     * c_k, the fraction of the region's crash tests that recomputed. A region no test hit reports 0: with no evidence
     * the selection must not count on recomputing there, and a pessimistic c_k can only make a plan more careful.
     */
    public double recomputability() {
        return tests == 0 ? 0.0 : (double) recomputed / tests;
    }

    /** True if at least one crash test hit the region, so {@link #recomputability()} is measured, not assumed. */
    public boolean sampled() {
        return tests > 0;
    }
}
