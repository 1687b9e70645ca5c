package dev.lazarus.recovery.campaign;

import dev.lazarus.easycrash.PersistencePlan;
import dev.lazarus.recovery.cost.SystemParameters;
import dev.lazarus.recovery.cost.Tau;
import dev.lazarus.recovery.selection.CriticalObjectSelector;
import dev.lazarus.recovery.selection.CrashTestOutcome;
import dev.lazarus.recovery.selection.CrashTestResult;
import dev.lazarus.recovery.selection.ObjectCorrelation;
import dev.lazarus.recovery.selection.PersistenceCost;
import dev.lazarus.recovery.selection.RegionCandidate;
import dev.lazarus.recovery.selection.RegionPlan;
import dev.lazarus.recovery.selection.RegionRecomputability;
import dev.lazarus.recovery.selection.RegionSelector;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * EasyCrash's four-step workflow (paper §5.3) over crash-test phases:
 * <ol>
 *   <li>{@code none}: no persistence; the candidates' inconsistent rates and the per-region recomputability c_k;</li>
 *   <li>critical objects: Spearman R_s &lt; 0 and p &lt; 0.01 ({@link CriticalObjectSelector});</li>
 *   <li>{@code best}: the critical objects persisted at the end of every region every iteration, giving c_k^max;
 *       {@code objects}: persisted once per main-loop iteration (at its last region), the paper's "selecting data
 *       objects";</li>
 *   <li>the knapsack picks regions and frequencies under the overhead budget ({@link RegionSelector}), and the
 *       {@code plan} phase measures what that plan really gives.</li>
 * </ol>
 */
public final class Campaign {
    private static final double TEN_YEARS = 10 * 365.25 * 86400;
    /** Phases of a campaign: none, best, objects, plan. */
    private static final int PHASES = 4;

    /**
     * @param testsPerPhase  crash tests in each phase
     * @param seed           crash points' seed (phase k of 1..4 draws with seed * 4 + k)
     * @param overheadBudget t_s, the largest persistence overhead (fraction of run time)
     * @param mtbfSeconds    the system's mean time between failures, for tau
     * @param checkpointSeconds T_chk, for tau
     * @param nvmBandwidth   bytes per second NVM restarts read at (T_r')
     */
    public record Settings(int testsPerPhase, long seed, double overheadBudget, double mtbfSeconds,
                           double checkpointSeconds, double nvmBandwidth) {
    }

    /** What production timing measured (see {@link ProductionTiming}). */
    public record Timing(double runSeconds, double secondsPerLine) {
    }

    /**
     * One phase's outcome.
     *
     * @param recomputability fraction of tests that recomputed (S1)
     * @param outcomes        S1..S4 counts
     */
    public record Phase(String name, double recomputability, Map<CrashTestOutcome, Integer> outcomes, int tests) {
        static Phase of(String name, List<CrashTestResult> results) {
            Map<CrashTestOutcome, Integer> counts = new EnumMap<>(CrashTestOutcome.class);
            for (CrashTestOutcome o : CrashTestOutcome.values()) {
                counts.put(o, 0);
            }
            results.forEach(r -> counts.merge(r.outcome(), 1, Integer::sum));
            double rate = results.isEmpty() ? 0 : counts.get(CrashTestOutcome.S1) / (double) results.size();
            return new Phase(name, rate, counts, results.size());
        }
    }

    /**
     * Everything the report shows.
     *
     * @param meanInconsistentRates per candidate object, its mean inconsistent rate at the crashes of phase none:
     *                              how much of it a crash left stale in NVM
     * @param testsRun  crash tests really run: phases that would repeat another (no critical object, or a plan that
     *                  persists nothing) reuse its results
     * @param phasesRun the phases whose crash tests really ran, in the order they ran
     */
    public record Report(String application, List<String> regions, double[] regionShares,
                         List<ObjectCorrelation> correlations, Map<String, Double> meanInconsistentRates,
                         List<String> critical, Phase none, Phase objects, Phase plan, Phase best,
                         RegionPlan selection, PersistencePlan persistencePlan, Tau tau, Timing timing,
                         Settings settings, int testsRun, List<String> phasesRun) {
    }

    /** Told what is happening, for a progress display. */
    public interface Progress {
        void phase(String name, int index, int phases);

        void tests(int finished, int total);
    }

    private final CrashTestEngine engine;
    private final Settings settings;

    public Campaign(CrashTestEngine engine, Settings settings) {
        this.engine = engine;
        this.settings = settings;
    }

    public Report run(CampaignTarget target, Timing timing, Progress progress)
            throws IOException, InterruptedException {
        CrashTestEngine.PhaseResult none = phase(target, null, "none", 1, progress);
        List<ObjectCorrelation> correlations = CriticalObjectSelector.withDefaultThreshold().select(none.results());
        List<String> critical = correlations.stream().filter(ObjectCorrelation::critical)
                .map(ObjectCorrelation::name).sorted().toList();
        List<String> regions = none.regions();
        String app = target.name();
        PersistencePlan everyRegion = plan(app, regions, critical, everywhere(regions.size()));
        int[] lastRegionOnly = new int[regions.size()];
        lastRegionOnly[regions.size() - 1] = 1;
        PersistencePlan oncePerIteration = plan(app, regions, critical, lastRegionOnly);

        CrashTestEngine.PhaseResult best = critical.isEmpty() ? none : phase(target, everyRegion, "best", 2, progress);
        CrashTestEngine.PhaseResult objects = critical.isEmpty() ? none
                : phase(target, oncePerIteration, "objects", 3, progress);

        long criticalBytes = critical.stream().mapToLong(none.candidates()::get).sum();
        Tau tau = Tau.solve(SystemParameters.of(settings.mtbfSeconds(), settings.checkpointSeconds(),
                criticalBytes / settings.nvmBandwidth(), settings.overheadBudget(), TEN_YEARS));
        RegionPlan selection = select(none, best, criticalBytes, timing, tau);
        int[] every = new int[regions.size()];
        long[] intervals = selection.intervalsByRegion(regions.size());
        for (int k = 0; k < every.length; k++) {
            every[k] = Math.toIntExact(intervals[k]);
        }
        PersistencePlan chosen = plan(app, regions, critical, every);
        // A plan the campaign has already measured is not measured again (crash points differ, the plan does not).
        CrashTestEngine.PhaseResult planned;
        if (critical.isEmpty() || selection.regions().isEmpty()) {
            planned = none;
        } else if (java.util.Arrays.equals(every, everywhere(regions.size()))) {
            planned = best;
        } else if (java.util.Arrays.equals(every, lastRegionOnly)) {
            planned = objects;
        } else {
            planned = phase(target, chosen, "plan", 4, progress);
        }

        Map<String, CrashTestEngine.PhaseResult> run = phasesRun(none, best, objects, planned);
        return new Report(app, regions, none.regionShares(), correlations, meanRates(none), critical,
                Phase.of("none", none.results()),
                Phase.of("objects", objects.results()), Phase.of("plan", planned.results()),
                Phase.of("best", best.results()), selection, chosen, tau, timing, settings,
                run.values().stream().mapToInt(p -> p.results().size()).sum(), List.copyOf(run.keySet()));
    }

    private CrashTestEngine.PhaseResult phase(CampaignTarget target, PersistencePlan plan, String name, int index,
                                              Progress progress) throws IOException, InterruptedException {
        progress.phase(name, index, PHASES);
        int tests = settings.testsPerPhase();
        // Disjoint per campaign seed: with seed + index, campaigns with seeds s and s+1 shared three phases' crash
        // points, so repeating a campaign with the next seed was no independent check of its figures.
        long seed = settings.seed() * PHASES + index;
        return engine.run(target, plan, tests, seed, finished -> progress.tests(finished, tests));
    }

    private RegionPlan select(CrashTestEngine.PhaseResult none, CrashTestEngine.PhaseResult best,
                              long criticalBytes, Timing timing, Tau tau) {
        RegionRecomputability baseline = RegionRecomputability.of(none.results(), none.regionShares());
        RegionRecomputability persisted = RegionRecomputability.of(best.results(), none.regionShares());
        List<RegionCandidate> candidates = new ArrayList<>();
        int regions = none.regions().size();
        for (int k = 0; k < regions; k++) {
            // Lazarus persists at region ends, not inside a region's loop as the paper's NVCT does. So a crash in
            // region k+1 (after the last region: the next iteration's first) finds what the end of region k
            // persisted, and that region's weight and recomputability are what persisting at the end of k buys.
            int served = (k + 1) % regions;
            candidates.add(RegionCandidate.of(none.regions().get(k), baseline.region(served),
                    persisted.region(served), none.iterations(), true));
        }
        // CLWB keeps lines cached, so no doubling for invalidation (paper §5.3 doubles only for CLFLUSH(OPT)).
        PersistenceCost cost = PersistenceCost.forBytes(timing.secondsPerLine(), Math.max(1, criticalBytes), false);
        return new RegionSelector(settings.overheadBudget(), RegionSelector.DEFAULT_RESOLUTION)
                .select(candidates, cost, timing.runSeconds(), tau.value());
    }

    private static Map<String, Double> meanRates(CrashTestEngine.PhaseResult phase) {
        Map<String, Double> means = new java.util.TreeMap<>();
        for (String object : phase.candidates().keySet()) {
            means.put(object, phase.results().stream().mapToDouble(r -> r.inconsistentRate(object)).average()
                    .orElse(0));
        }
        return means;
    }

    /**
     * The phases measured in their own right, by name, given none, best, objects and plan in that order: a phase that
     * reuses another's results (the same object) is left out.
     */
    private static Map<String, CrashTestEngine.PhaseResult> phasesRun(CrashTestEngine.PhaseResult none,
            CrashTestEngine.PhaseResult best, CrashTestEngine.PhaseResult objects, CrashTestEngine.PhaseResult plan) {
        Map<String, CrashTestEngine.PhaseResult> run = new java.util.LinkedHashMap<>();
        run.put("none", none);
        for (Map.Entry<String, CrashTestEngine.PhaseResult> phase : List.of(Map.entry("best", best),
                Map.entry("objects", objects), Map.entry("plan", plan))) {
            if (run.values().stream().noneMatch(seen -> seen == phase.getValue())) {
                run.put(phase.getKey(), phase.getValue());
            }
        }
        return run;
    }

    private static int[] everywhere(int regions) {
        int[] every = new int[regions];
        java.util.Arrays.fill(every, 1);
        return every;
    }

    private static PersistencePlan plan(String app, List<String> regions, List<String> critical, int[] every) {
        return critical.isEmpty() ? PersistencePlan.none(app, regions)
                : new PersistencePlan(app, regions, critical, every);
    }
}
