package dev.lazarus.recovery.selection;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RegionSelectorTest {

    /** Which sets a brute-force search may choose. */
    private enum Feasible { TRUE_OVERHEAD, TIGHTENED, GRID }

    private record Instance(List<RegionCandidate> regions, PersistenceCost cost, double runSeconds) {
    }

    private static double overhead(RegionCandidate region, long x, Instance instance) {
        return (double) region.persistencePoints() / x * instance.cost().secondsPerOperation() / instance.runSeconds();
    }

    private static long gridSteps(double overhead, double resolution) {
        long steps = (long) Math.ceil(overhead / resolution);
        return steps * resolution < overhead ? steps + 1 : steps;
    }

    /** Largest whole number of steps strictly below the budget. */
    private static long gridCapacity(double budget, double resolution) {
        long c = 0;
        while ((c + 1) * resolution < budget) {
            c++;
        }
        return c;
    }

    /**
     * The best Y' over every assignment of "none" or one interval to each region, computed the long way: weights
     * a'_i = (a_i + l_i) / &Sigma;(a_j + l_j), c'_i by Eq. 5 where persisted.
     */
    private static double bruteForce(Instance instance, double budget, double resolution, Feasible rule) {
        return search(instance, 0, new long[instance.regions().size()], budget, resolution, rule);
    }

    private static double search(Instance instance, int k, long[] chosen, double budget, double resolution,
                                 Feasible rule) {
        List<RegionCandidate> regions = instance.regions();
        if (k == regions.size()) {
            double numerator = 0;
            double denominator = 0;
            double overhead = 0;
            long steps = 0;
            for (int i = 0; i < regions.size(); i++) {
                RegionCandidate r = regions.get(i);
                double l = chosen[i] == 0 ? 0 : overhead(r, chosen[i], instance);
                double c = chosen[i] == 0 ? r.baseline() : (r.best() - r.baseline()) / chosen[i] + r.baseline();
                numerator += (r.weight() + l) * c;
                denominator += r.weight() + l;
                overhead += l;
                steps += chosen[i] == 0 ? 0 : gridSteps(l, resolution);
            }
            boolean ok = switch (rule) {
                case TRUE_OVERHEAD -> overhead < budget;
                case TIGHTENED -> overhead < budget - regions.size() * resolution;
                case GRID -> steps <= gridCapacity(budget, resolution);
            };
            return ok ? numerator / denominator : Double.NEGATIVE_INFINITY;
        }
        chosen[k] = 0;
        double best = search(instance, k + 1, chosen, budget, resolution, rule);
        // Only regions whose c_k^max beats c_k are candidates (the selector's documented rule).
        List<Long> intervals = regions.get(k).best() > regions.get(k).baseline() ? regions.get(k).intervals()
                : List.of();
        for (long x : intervals) {
            chosen[k] = x;
            best = Math.max(best, search(instance, k + 1, chosen, budget, resolution, rule));
        }
        chosen[k] = 0;
        return best;
    }

    private static Instance randomInstance(Random random, int regionCount) {
        double[] weights = new double[regionCount];
        double sum = 0;
        for (int k = 0; k < regionCount; k++) {
            weights[k] = 0.05 + random.nextDouble();
            sum += weights[k];
        }
        double runSeconds = 100 + 1000 * random.nextDouble();
        double secondsPerOperation = 1e-3 + 0.05 * random.nextDouble();
        List<RegionCandidate> regions = new ArrayList<>();
        for (int k = 0; k < regionCount; k++) {
            boolean loop = random.nextInt(4) != 0;
            // Points chosen so that l(1) ranges from well inside to well beyond a 3% budget.
            long points = 1 + random.nextInt((int) Math.max(1, 0.08 * runSeconds / secondsPerOperation));
            double baseline = random.nextDouble();
            // Mostly an improvement, sometimes a noisy c_k^max below c_k.
            double best = random.nextInt(6) == 0 ? baseline * random.nextDouble()
                    : baseline + (1 - baseline) * random.nextDouble();
            regions.add(new RegionCandidate("R" + k, weights[k] / sum, baseline, best, points, loop));
        }
        // secondsPerLine * lines == secondsPerOperation, up to rounding, which overhead() above reproduces exactly.
        return new Instance(regions, new PersistenceCost(secondsPerOperation / 1000, 1000, false), runSeconds);
    }

    private static double recomputeY(RegionPlan plan, Instance instance) {
        double numerator = 0;
        double denominator = 0;
        long[] intervals = plan.intervalsByRegion(instance.regions().size());
        for (int k = 0; k < intervals.length; k++) {
            RegionCandidate r = instance.regions().get(k);
            double l = intervals[k] == 0 ? 0 : overhead(r, intervals[k], instance);
            double c = intervals[k] == 0 ? r.baseline() : r.recomputabilityAt(intervals[k]);
            numerator += (r.weight() + l) * c;
            denominator += r.weight() + l;
        }
        return numerator / denominator;
    }

    @Test
    void matchesBruteForceOnRandomInstances() {
        Random random = new Random(7L);
        int selectedSomething = 0;
        for (int trial = 0; trial < 60; trial++) {
            double budget = 0.01 + 0.04 * random.nextDouble();
            double resolution = trial % 2 == 0 ? 1e-4 : 1e-5;
            RegionSelector selector = new RegionSelector(budget, resolution);
            Instance instance = randomInstance(random, 1 + random.nextInt(5));
            RegionPlan plan = selector.select(instance.regions(), instance.cost(), instance.runSeconds(), 0.5);
            String context = "trial " + trial + ": " + plan;

            double onGrid = bruteForce(instance, budget, resolution, Feasible.GRID);
            assertEquals(onGrid, plan.predictedRecomputability(), 1e-12, context);
            // Rounding overheads up can only lose sets within regions * resolution of the budget.
            double exact = bruteForce(instance, budget, resolution, Feasible.TRUE_OVERHEAD);
            double tightened = bruteForce(instance, budget, resolution, Feasible.TIGHTENED);
            assertTrue(plan.predictedRecomputability() <= exact + 1e-12, context);
            assertTrue(plan.predictedRecomputability() >= tightened - 1e-12, context);

            assertTrue(plan.overhead() < budget, context);
            assertEquals(recomputeY(plan, instance), plan.predictedRecomputability(), 1e-12, context);
            assertTrue(plan.predictedRecomputability() >= plan.baselineRecomputability() - 1e-15, context);
            selectedSomething += plan.regions().isEmpty() ? 0 : 1;
        }
        assertTrue(selectedSomething > 30, "the instances must exercise selection: " + selectedSomething);
    }

    @Test
    void neverExceedsTheBudgetEvenWhenEverythingIsExpensive() {
        Random random = new Random(11L);
        RegionSelector selector = RegionSelector.withDefaults();
        for (int trial = 0; trial < 200; trial++) {
            Instance instance = randomInstance(random, 1 + random.nextInt(8));
            RegionPlan plan = selector.select(instance.regions(), instance.cost(), instance.runSeconds(), 0.0);
            double sum = 0;
            for (PlannedRegion region : plan.regions()) {
                RegionCandidate candidate = instance.regions().get(region.index());
                assertEquals(overhead(candidate, region.interval(), instance), region.overhead(), 1e-15);
                assertEquals(candidate.name(), region.name());
                sum += region.overhead();
            }
            assertEquals(sum, plan.overhead(), 1e-15);
            assertTrue(plan.overhead() < RegionSelector.DEFAULT_OVERHEAD_BUDGET, "trial " + trial + ": " + plan);
        }
    }

    /**
     * Three regions, like the paper's Figure 6. Y = 0.5*0.2 + 0.3*0.4 + 0.2*0.6 = 0.34. With 8 persistence points at
     * 5 ms in a 1 s run, region 0 costs 0.04 at x=1 (over budget), 0.02 at x=2, 0.01 at x=4; region 1 (not a loop,
     * 2 points) costs 0.01. Region 2 has c_k^max = c_k: not a candidate, although padding it with persistence time
     * would lift Y' (its 0.6 is above Y'). Candidates under t_s = 0.03:
     * {R0 x=2}: (0.34 + 0.5*0.35 + 0.02*0.55) / 1.02 = 0.526 / 1.02 = 0.51569;
     * {R0 x=4, R1}: (0.34 + 0.5*0.175 + 0.01*0.375 + 0.3*0.1 + 0.01*0.5) / 1.02 = 0.45711;
     * {R0 x=2, R1} costs exactly 0.03, which Eq. 3's strict inequality excludes.
     */
    @Test
    void picksTheBestCombinationOfAWorkedExample() {
        List<RegionCandidate> regions = List.of(
                new RegionCandidate("R1", 0.5, 0.2, 0.9, 8, true),
                new RegionCandidate("R2", 0.3, 0.4, 0.5, 2, false),
                new RegionCandidate("R3", 0.2, 0.6, 0.6, 8, true));
        PersistenceCost cost = new PersistenceCost(5e-6, 1000, false);
        RegionPlan plan = RegionSelector.withDefaults().select(regions, cost, 1.0, 0.5);
        assertEquals(1, plan.regions().size(), plan.toString());
        PlannedRegion r1 = plan.regions().getFirst();
        assertEquals(0, r1.index());
        assertEquals("R1", r1.name());
        assertEquals(2, r1.interval());
        assertEquals(4.0, r1.operations());
        assertEquals(0.55, r1.recomputability(), 1e-15);
        assertEquals(0.02, r1.overhead(), 1e-15);
        assertEquals(0.34, plan.baselineRecomputability(), 1e-15);
        assertEquals(0.526 / 1.02, plan.predictedRecomputability(), 1e-12);
        assertEquals(0.02, plan.overhead(), 1e-15);
        assertTrue(plan.clearsTau(), "0.5157 > 0.5");
        assertArrayEquals(new long[] {2, 0, 0}, plan.intervalsByRegion(3));
        assertFalse(RegionSelector.withDefaults().select(regions, cost, 1.0, 0.52).clearsTau());

        // An invalidating flush doubles every overhead: R1 at x=4 (0.02) and R2 (0.02) no longer fit together, and
        // R1 x=4 alone, (0.34 + 0.5*0.175 + 0.02*0.375) / 1.02 = 0.42647, beats R2 alone, (0.34 + 0.03 + 0.01) / 1.02
        // = 0.37255, and R1 x=8 alone, (0.34 + 0.04375 + 0.01*0.2875) / 1.01 = 0.38280.
        RegionPlan doubled = RegionSelector.withDefaults().select(regions,
                new PersistenceCost(5e-6, 1000, true), 1.0, 0.5);
        assertEquals(List.of(4L), doubled.regions().stream().map(PlannedRegion::interval).toList());
        assertEquals((0.34 + 0.5 * 0.175 + 0.02 * 0.375) / 1.02, doubled.predictedRecomputability(), 1e-12);
    }

    /** Eq. 3 is strict. Powers of two make every quantity exact, so the boundary case really is at the boundary. */
    @Test
    void anOverheadEqualToTheBudgetDoesNotFit() {
        double budget = 1.0 / 32;
        double step = 1.0 / 32768;
        RegionSelector selector = new RegionSelector(budget, step);
        List<RegionCandidate> one = List.of(new RegionCandidate("R", 1.0, 0.2, 0.9, 1, false));
        RegionPlan atBudget = selector.select(one, new PersistenceCost(budget / 1024, 1024, false), 1.0, 0);
        assertTrue(atBudget.regions().isEmpty(), atBudget.toString());
        RegionPlan oneStepBelow = selector.select(one,
                new PersistenceCost((budget - step) / 1024, 1024, false), 1.0, 0);
        assertEquals(1, oneStepBelow.regions().size(), oneStepBelow.toString());
        assertEquals(budget - step, oneStepBelow.overhead());
    }

    @Test
    void persistsNowhereWhenNothingFitsOrHelps() {
        List<RegionCandidate> regions = List.of(
                new RegionCandidate("hot", 0.7, 0.3, 0.9, 1, false),
                new RegionCandidate("worse", 0.3, 0.5, 0.1, 64, true));
        // One operation of 0.5 s in a 10 s run is 5% of it: over budget. "worse" loses recomputability.
        RegionPlan plan = RegionSelector.withDefaults().select(regions,
                new PersistenceCost(5e-4, 1000, false), 10.0, 0.4);
        assertTrue(plan.regions().isEmpty(), plan.toString());
        assertEquals(0.7 * 0.3 + 0.3 * 0.5, plan.predictedRecomputability(), 1e-15);
        assertEquals(plan.baselineRecomputability(), plan.predictedRecomputability());
        assertEquals(0.0, plan.overhead());
        assertFalse(plan.clearsTau(), "0.36 < 0.4");
    }

    @Test
    void rejectsBadInputWithExactMessages() {
        RegionSelector selector = RegionSelector.withDefaults();
        PersistenceCost cost = new PersistenceCost(1e-9, 10, false);
        List<RegionCandidate> half = List.of(new RegionCandidate("a", 0.5, 0.1, 0.2, 1, false));
        assertEquals("region weights must sum to 1: sum=0.5, regions=1",
                assertThrows(IllegalArgumentException.class, () -> selector.select(half, cost, 1, 0)).getMessage());
        List<RegionCandidate> one = List.of(new RegionCandidate("a", 1.0, 0.1, 0.2, 1, false));
        assertEquals("runSeconds must be positive and finite: runSeconds=0.0",
                assertThrows(IllegalArgumentException.class, () -> selector.select(one, cost, 0, 0)).getMessage());
        assertEquals("tau must be in [0, 1]: tau=1.5",
                assertThrows(IllegalArgumentException.class, () -> selector.select(one, cost, 1, 1.5)).getMessage());
        assertEquals("persistence cost must not be null: regions=1",
                assertThrows(IllegalArgumentException.class, () -> selector.select(one, null, 1, 0)).getMessage());
        assertEquals("need at least one code region: regions=0",
                assertThrows(IllegalArgumentException.class,
                        () -> selector.select(List.of(), cost, 1, 0)).getMessage());
        assertEquals("overheadBudget must be in (0, 1): overheadBudget=0.0",
                assertThrows(IllegalArgumentException.class, () -> new RegionSelector(0, 1e-5)).getMessage());
        assertEquals("resolution must be in (0, overheadBudget]: resolution=0.1, overheadBudget=0.03",
                assertThrows(IllegalArgumentException.class, () -> new RegionSelector(0.03, 0.1)).getMessage());
        assertEquals("overhead grid too fine: steps=300000000, limit=20000000, resolution=1.0E-10",
                assertThrows(IllegalArgumentException.class, () -> new RegionSelector(0.03, 1e-10)).getMessage());
        List<RegionCandidate> many = new ArrayList<>();
        for (int k = 0; k < 8; k++) {
            many.add(new RegionCandidate("r" + k, 0.125, 0.1, 0.2, 1, false));
        }
        assertEquals("selection grid too large: regions=8, steps=3000000, limit=20000000 cells",
                assertThrows(IllegalArgumentException.class,
                        () -> new RegionSelector(0.03, 1e-8).select(many, cost, 1, 0)).getMessage());
        RegionPlan plan = selector.select(one, cost, 1, 0);
        assertEquals("regionCount must be >= 0: regionCount=-1",
                assertThrows(IllegalArgumentException.class, () -> plan.intervalsByRegion(-1)).getMessage());
    }
}
