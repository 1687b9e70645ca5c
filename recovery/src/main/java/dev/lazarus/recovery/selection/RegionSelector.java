package dev.lazarus.recovery.selection;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * EasyCrash's selection of code regions and persistence intervals (paper §5.2, §5.3 step 3).
 *
 * <p><b>Model.</b> Persisting the critical objects in region k every x-th persistence point costs
 * l_k(x) = (persistencePoints_k / x) &middot; secondsPerOperation / T of the run time T, and raises the region's
 * recomputability from c_k to c_k^x = (c_k^max - c_k) / x + c_k (Eq. 5). The added time belongs to region k, so the
 * weights become a'_i = (a_i + l_i) / (&Sigma;a + L) with L = &Sigma; l_i (Eq. 2) and
 * <pre>
 *   Y'(S) = (&Sigma;_i a_i c_i + &Sigma;_{k in S} gain_k) / (&Sigma;_i a_i + &Sigma;_{k in S} l_k),
 *   gain_k = a_k (c_k^x - c_k) + l_k c_k^x
 * </pre>
 * The selector picks at most one interval per region to maximize Y' subject to L &lt; t_s (Eq. 3), and reports
 * whether Y' &gt; &tau; (Eq. 4). Only regions with c_k^max &gt; c_k are candidates: elsewhere persistence cannot raise
 * c_k, and the l_k c_k^x term would reward it merely for adding time to a region that recomputes well.
 *
 * <p><b>Algorithm.</b> The paper calls this a 0/1 knapsack; with one item per (region, interval) and at most one item
 * per region it is a multiple-choice knapsack, solved exactly by dynamic programming over a grid of overheads. Because
 * of the renormalization Y' is a ratio, not a sum, so a single knapsack cannot maximize it. Dinkelbach's method turns
 * it into a short sequence of additive ones: with &lambda; the best ratio so far, maximize
 * &Sigma;_{k in S} [gain_k - &lambda; l_k]; if the best set S has numerator - &lambda; &middot; denominator &gt; 0 it
 * has a better ratio, so &lambda; becomes its ratio and the round repeats; otherwise the current set is optimal. Each
 * round is exact on the grid, and the ratios strictly increase, so the rounds end at the exact optimum.
 *
 * <p><b>Grid.</b> Each l_k(x) is rounded <em>up</em> to a whole number of grid steps ({@link #resolution()}, by default
 * 1e-5 of the run time), and the steps must fit strictly below t_s. Rounding up means the true overhead of the plan
 * is always below t_s; the price is that combinations whose true total lies within (number of regions) &times;
 * resolution under t_s may be passed over. With the defaults that is a few thousandths of the budget.
 */
public final class RegionSelector {
    /** The paper's runtime-overhead budget t_s: 3% of the crash-free run time (§6). */
    public static final double DEFAULT_OVERHEAD_BUDGET = 0.03;
    /** Grid step for overheads, as a fraction of the run time: 3000 steps under the default budget. */
    public static final double DEFAULT_RESOLUTION = 1e-5;
    /** The DP's choice table has regions &times; steps entries; this caps it at 80 MB of ints. */
    static final long MAX_GRID_CELLS = 20_000_000L;

    // Region weights come from measured times normalized to 1; allow for rounding in the caller's arithmetic.
    private static final double WEIGHT_SUM_TOLERANCE = 1e-6;
    // Dinkelbach stops once the best additive gain at the current ratio is no longer positive beyond rounding.
    private static final double CONVERGENCE = 1e-12;
    private static final int MAX_ROUNDS = 100;

    private final double overheadBudget;
    private final double resolution;
    private final int capacity;

    /**
     * A selector for one budget and grid.
     *
     * @param overheadBudget t_s, the largest allowed total overhead as a fraction of run time, in (0, 1)
     * @param resolution     the overhead grid step as a fraction of run time, in (0, overheadBudget]
     * @throws IllegalArgumentException for values outside those ranges, or a grid of more than
     *                                  20,000,000 steps
     */
    public RegionSelector(double overheadBudget, double resolution) {
        if (!(overheadBudget > 0.0 && overheadBudget < 1.0)) {
            throw new IllegalArgumentException("overheadBudget must be in (0, 1): overheadBudget=" + overheadBudget);
        }
        if (!(resolution > 0.0 && resolution <= overheadBudget)) {
            throw new IllegalArgumentException("resolution must be in (0, overheadBudget]: resolution=" + resolution
                    + ", overheadBudget=" + overheadBudget);
        }
        double steps = overheadBudget / resolution;
        if (steps > MAX_GRID_CELLS) {
            throw new IllegalArgumentException("overhead grid too fine: steps=" + (long) steps + ", limit="
                    + MAX_GRID_CELLS + ", resolution=" + resolution);
        }
        this.overheadBudget = overheadBudget;
        this.resolution = resolution;
        this.capacity = capacityOf(overheadBudget, resolution);
    }

    /** A selector with t_s = {@value #DEFAULT_OVERHEAD_BUDGET} and a grid of {@value #DEFAULT_RESOLUTION}. */
    public static RegionSelector withDefaults() {
        return new RegionSelector(DEFAULT_OVERHEAD_BUDGET, DEFAULT_RESOLUTION);
    }

    /** t_s, as a fraction of run time. */
    public double overheadBudget() {
        return overheadBudget;
    }

    /** The overhead grid step, as a fraction of run time. */
    public double resolution() {
        return resolution;
    }

    /** The largest whole number of grid steps strictly below the budget: Eq. 3 is a strict inequality. */
    private static int capacityOf(double budget, double step) {
        long steps = (long) Math.ceil(budget / step) - 1;
        while ((steps + 1) * step < budget) {
            steps++;
        }
        while (steps > 0 && steps * step >= budget) {
            steps--;
        }
        return (int) steps;
    }

    /**
     * l_k(x) = (persistencePoints / x) &middot; secondsPerOperation / runSeconds: the region's persistence time at
     * interval x as a fraction of the run time.
     */
    public static double overhead(RegionCandidate region, long interval, PersistenceCost cost, double runSeconds) {
        return region.operationsAt(interval) * cost.secondsPerOperation() / runSeconds;
    }

    /**
     * Chooses where and how often to persist.
     *
     * @param regions    every code region of the application, by index; weights must sum to 1
     * @param cost       the time of one persistence operation of the critical objects
     * @param runSeconds T, the crash-free run time without persistence, in seconds
     * @param tau        the recomputability threshold from the efficiency model, in [0, 1]
     * @throws IllegalArgumentException for no regions, weights that do not sum to 1, a bad run time or tau
     */
    public RegionPlan select(List<RegionCandidate> regions, PersistenceCost cost, double runSeconds,
                                  double tau) {
        validate(regions, cost, runSeconds, tau);
        List<RegionOptions> options = new ArrayList<>(regions.size());
        double weightSum = 0.0;
        double baseline = 0.0;
        for (RegionCandidate region : regions) {
            options.add(optionsOf(region, cost, runSeconds));
            weightSum += region.weight();
            baseline += region.weight() * region.baseline();
        }
        int[] chosen = maximizeRatio(options, baseline, weightSum);
        return planOf(regions, options, chosen, baseline, weightSum, tau);
    }

    private void validate(List<RegionCandidate> regions, PersistenceCost cost, double runSeconds, double tau) {
        if (regions == null || regions.isEmpty()) {
            throw new IllegalArgumentException("need at least one code region: regions=0");
        }
        double weightSum = 0.0;
        for (int k = 0; k < regions.size(); k++) {
            if (regions.get(k) == null) {
                throw new IllegalArgumentException("region must not be null: region=" + k);
            }
            weightSum += regions.get(k).weight();
        }
        if (Math.abs(weightSum - 1.0) > WEIGHT_SUM_TOLERANCE) {
            throw new IllegalArgumentException("region weights must sum to 1: sum=" + weightSum + ", regions="
                    + regions.size());
        }
        if (cost == null) {
            throw new IllegalArgumentException("persistence cost must not be null: regions=" + regions.size());
        }
        if (!(runSeconds > 0.0 && Double.isFinite(runSeconds))) {
            throw new IllegalArgumentException("runSeconds must be positive and finite: runSeconds=" + runSeconds);
        }
        if (!(tau >= 0.0 && tau <= 1.0)) {
            throw new IllegalArgumentException("tau must be in [0, 1]: tau=" + tau);
        }
        if ((long) regions.size() * (capacity + 1L) > MAX_GRID_CELLS) {
            throw new IllegalArgumentException("selection grid too large: regions=" + regions.size() + ", steps="
                    + (capacity + 1L) + ", limit=" + MAX_GRID_CELLS + " cells");
        }
    }

    /** The intervals of one region that fit the budget on their own, with their grid weight and gain. */
    private RegionOptions optionsOf(RegionCandidate region, PersistenceCost cost, double runSeconds) {
        List<Long> intervals = region.intervals();
        RegionOptions options = new RegionOptions(intervals.size());
        // Persisting where c_k^max <= c_k cannot raise c_k at any x (Eq. 5). Under Eq. 2 its time would still raise Y'
        // whenever c_k > Y', by padding a good region's weight; that is an artifact of the ratio, not a benefit.
        if (!(region.best() > region.baseline())) {
            return options;
        }
        for (long x : intervals) {
            double l = overhead(region, x, cost, runSeconds);
            double steps = Math.ceil(l / resolution);
            if (!(steps <= capacity)) {
                continue;
            }
            int units = (int) steps;
            // Guard the rounding of l / resolution: a grid weight must never be below the true overhead.
            if (units * resolution < l) {
                units++;
                if (units > capacity) {
                    continue;
                }
            }
            double c = region.recomputabilityAt(x);
            double gain = region.weight() * (c - region.baseline()) + l * c;
            options.add(x, units, l, c, gain);
        }
        return options;
    }

    /** Dinkelbach's iteration over exact grid knapsacks; returns the chosen option per region or NONE. */
    private int[] maximizeRatio(List<RegionOptions> options, double baseline, double weightSum) {
        int groups = options.size();
        int[][] units = new int[groups][];
        double[][] values = new double[groups][];
        for (int g = 0; g < groups; g++) {
            units[g] = options.get(g).units();
            values[g] = new double[units[g].length];
        }
        int[] best = new int[groups];
        Arrays.fill(best, MultipleChoiceKnapsack.NONE);
        double ratio = baseline / weightSum;
        for (int round = 0; round < MAX_ROUNDS; round++) {
            for (int g = 0; g < groups; g++) {
                RegionOptions o = options.get(g);
                for (int j = 0; j < o.size(); j++) {
                    values[g][j] = o.gain(j) - ratio * o.overhead(j);
                }
            }
            int[] candidate = MultipleChoiceKnapsack.solve(units, values, capacity);
            double numerator = baseline + sum(options, candidate, true);
            double denominator = weightSum + sum(options, candidate, false);
            if (numerator - ratio * denominator <= CONVERGENCE) {
                break;
            }
            best = candidate;
            ratio = numerator / denominator;
        }
        return best;
    }

    private static double sum(List<RegionOptions> options, int[] chosen, boolean gains) {
        double total = 0.0;
        for (int g = 0; g < chosen.length; g++) {
            if (chosen[g] != MultipleChoiceKnapsack.NONE) {
                RegionOptions o = options.get(g);
                total += gains ? o.gain(chosen[g]) : o.overhead(chosen[g]);
            }
        }
        return total;
    }

    private RegionPlan planOf(List<RegionCandidate> regions, List<RegionOptions> options, int[] chosen,
                                   double baseline, double weightSum, double tau) {
        List<PlannedRegion> planned = new ArrayList<>();
        double gains = 0.0;
        double overhead = 0.0;
        for (int k = 0; k < chosen.length; k++) {
            int j = chosen[k];
            if (j == MultipleChoiceKnapsack.NONE) {
                continue;
            }
            RegionOptions o = options.get(k);
            RegionCandidate region = regions.get(k);
            planned.add(new PlannedRegion(k, region.name(), o.interval(j), region.operationsAt(o.interval(j)),
                    o.recomputability(j), o.overhead(j)));
            gains += o.gain(j);
            overhead += o.overhead(j);
        }
        double predicted = (baseline + gains) / (weightSum + overhead);
        return new RegionPlan(planned, baseline / weightSum, predicted, overhead, overheadBudget, tau);
    }

    /** Parallel arrays of one region's feasible intervals: a small growable table, cold path. */
    private static final class RegionOptions {
        private final long[] intervals;
        private final int[] units;
        private final double[] overheads;
        private final double[] recomputabilities;
        private final double[] gains;
        private int size;

        RegionOptions(int maxSize) {
            intervals = new long[maxSize];
            units = new int[maxSize];
            overheads = new double[maxSize];
            recomputabilities = new double[maxSize];
            gains = new double[maxSize];
        }

        void add(long interval, int unit, double overhead, double recomputability, double gain) {
            intervals[size] = interval;
            units[size] = unit;
            overheads[size] = overhead;
            recomputabilities[size] = recomputability;
            gains[size] = gain;
            size++;
        }

        int size() {
            return size;
        }

        int[] units() {
            return Arrays.copyOf(units, size);
        }

        long interval(int j) {
            return intervals[j];
        }

        double overhead(int j) {
            return overheads[j];
        }

        double recomputability(int j) {
            return recomputabilities[j];
        }

        double gain(int j) {
            return gains[j];
        }
    }
}
