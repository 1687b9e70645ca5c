package dev.lazarus.recovery.selection;

import java.util.ArrayList;
import java.util.List;

/**
 * Per-region and application recomputability of one crash-test campaign (paper §5.2, Eq. 1).
 *
 * <p>c_k is the S1 fraction of the tests that crashed in region k. a_k is not estimated from where the crashes landed
 * but taken from measured region times, because the paper defines it as the region's share of the accumulated
 * execution time, and measured times are far more precise than a histogram of a few thousand crashes.
 * Y = &Sigma; a_k c_k; the plain S1 fraction over all tests (including crashes outside the main loop) is reported too.
 */
public final class RegionRecomputability {
    private final List<RegionStats> regions;
    private final int tests;
    private final int recomputed;
    private final int outsideMainLoop;

    private RegionRecomputability(List<RegionStats> regions, int tests, int recomputed, int outsideMainLoop) {
        this.regions = List.copyOf(regions);
        this.tests = tests;
        this.recomputed = recomputed;
        this.outsideMainLoop = outsideMainLoop;
    }

    /**
     * Summarizes a campaign.
     *
     * @param results      the campaign's crash tests, at least one
     * @param regionSeconds accumulated execution time of each code region in a crash-free run, in seconds; its length
     *                     is the number of regions and a_k = regionSeconds[k] / sum
     * @throws IllegalArgumentException for no tests, no regions, a negative or non-finite time, all-zero times, or a
     *                                  test that crashed in a region that was not measured
     */
    public static RegionRecomputability of(List<CrashTestResult> results, double[] regionSeconds) {
        if (results == null || results.isEmpty()) {
            throw new IllegalArgumentException("need at least one crash test: tests=0");
        }
        double[] weights = weightsOf(regionSeconds);
        int[] regionTests = new int[weights.length];
        int[] regionRecomputed = new int[weights.length];
        int recomputed = 0;
        int outside = 0;
        for (int i = 0; i < results.size(); i++) {
            CrashTestResult result = results.get(i);
            if (result == null) {
                throw new IllegalArgumentException("crash test must not be null: test=" + i);
            }
            int region = result.crashedRegion();
            if (region >= weights.length) {
                throw new IllegalArgumentException("crash test names a region that was not measured: test=" + i
                        + ", crashedRegion=" + region + ", regions=" + weights.length);
            }
            boolean success = result.outcome().recomputed();
            recomputed += success ? 1 : 0;
            if (region == CrashTestResult.OUTSIDE_MAIN_LOOP) {
                outside++;
            } else {
                regionTests[region]++;
                regionRecomputed[region] += success ? 1 : 0;
            }
        }
        List<RegionStats> regions = new ArrayList<>(weights.length);
        for (int k = 0; k < weights.length; k++) {
            regions.add(new RegionStats(k, weights[k], regionTests[k], regionRecomputed[k]));
        }
        return new RegionRecomputability(regions, results.size(), recomputed, outside);
    }

    private static double[] weightsOf(double[] regionSeconds) {
        if (regionSeconds == null || regionSeconds.length == 0) {
            throw new IllegalArgumentException("need at least one code region: regions=0");
        }
        double total = 0.0;
        for (int k = 0; k < regionSeconds.length; k++) {
            double seconds = regionSeconds[k];
            if (!(seconds >= 0.0 && Double.isFinite(seconds))) {
                throw new IllegalArgumentException("region time must be finite and >= 0: region=" + k + ", seconds="
                        + seconds);
            }
            total += seconds;
        }
        if (!(total > 0.0 && Double.isFinite(total))) {
            throw new IllegalArgumentException("region times must add up to a positive finite time: regions="
                    + regionSeconds.length + ", totalSeconds=" + total);
        }
        double[] weights = new double[regionSeconds.length];
        for (int k = 0; k < weights.length; k++) {
            weights[k] = regionSeconds[k] / total;
        }
        return weights;
    }

    /** W, the number of code regions. */
    public int regionCount() {
        return regions.size();
    }

    /**
     * Region k's weight, counts and c_k.
     *
     * @throws IllegalArgumentException for an index outside [0, W)
     */
    public RegionStats region(int k) {
        if (k < 0 || k >= regions.size()) {
            throw new IllegalArgumentException("region index out of range: region=" + k + ", regions="
                    + regions.size());
        }
        return regions.get(k);
    }

    /** All regions, by index. */
    public List<RegionStats> regions() {
        return regions;
    }

    /** Y = &Sigma; a_k c_k (Eq. 1): the recomputability of a crash that lands in the main loop. */
    public double applicationRecomputability() {
        double y = 0.0;
        for (RegionStats region : regions) {
            y += region.weight() * region.recomputability();
        }
        return y;
    }

    /** The S1 fraction of all tests, crashes outside the main loop included: the campaign's raw success rate. */
    public double plainRecomputability() {
        return (double) recomputed / tests;
    }

    /** How many tests the campaign had. */
    public int tests() {
        return tests;
    }

    /** How many tests ended S1. */
    public int recomputed() {
        return recomputed;
    }

    /** How many tests crashed outside the main loop, which Y does not count. */
    public int outsideMainLoopTests() {
        return outsideMainLoop;
    }
}
