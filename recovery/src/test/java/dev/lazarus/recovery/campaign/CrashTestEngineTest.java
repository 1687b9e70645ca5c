package dev.lazarus.recovery.campaign;

import dev.lazarus.easycrash.PersistencePlan;
import dev.lazarus.recovery.crash.CacheConfig;
import dev.lazarus.recovery.selection.CrashTestOutcome;
import dev.lazarus.recovery.selection.CrashTestResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Real traced runs, real heap files and real restarts of a small converging application. */
class CrashTestEngineTest {
    /** A cache smaller than the 32 KiB vector, so evictions write part of it back and part stays dirty. */
    private static final CacheConfig SMALL = CacheConfig.parse("4K:4,16K:8");

    @TempDir
    Path work;

    private CrashTestEngine.PhaseResult phase(int iterations, double tolerance, PersistencePlan plan, int tests)
            throws Exception {
        return phase(new CampaignTarget("test.Converging", () -> new ConvergingApp(iterations, tolerance),
                new String[0]), plan, tests);
    }

    private CrashTestEngine.PhaseResult phase(CampaignTarget target, PersistencePlan plan, int tests)
            throws Exception {
        CrashTestEngine engine = new CrashTestEngine(new CrashTestEngine.Options(work, SMALL, 2,
                Duration.ofSeconds(30)));
        return engine.run(target, plan, tests, 42, done -> { });
    }

    private static Map<CrashTestOutcome, Integer> count(List<CrashTestResult> results) {
        Map<CrashTestOutcome, Integer> counts = new EnumMap<>(CrashTestOutcome.class);
        results.forEach(r -> counts.merge(r.outcome(), 1, Integer::sum));
        return counts;
    }

    @Test
    void everyCrashPointIsRestartedAndClassified() throws Exception {
        CrashTestEngine.PhaseResult result = phase(40, 1e-9, null, 60);
        assertEquals(60, result.results().size());
        assertEquals(List.of("update", "norm"), result.regions());
        assertEquals(java.util.Map.of("x", 8L * ConvergingApp.LENGTH), result.candidates());
        assertEquals(40, result.iterations());
        assertEquals(1.0, result.regionShares()[0] + result.regionShares()[1], 1e-9);
        for (CrashTestResult r : result.results()) {
            assertTrue(r.crashedRegion() == 0 || r.crashedRegion() == 1, r.toString());
            double rate = r.inconsistentRates().get("x");
            assertTrue(rate >= 0 && rate <= 1, r.toString());
        }
        Map<CrashTestOutcome, Integer> counts = count(result.results());
        assertTrue(counts.getOrDefault(CrashTestOutcome.S1, 0) > 0, counts.toString());
        assertEquals(0, counts.getOrDefault(CrashTestOutcome.S3, 0), counts.toString());
    }

    /**
     * A table that a fresh start writes and the loop only reads would stay dirty in the cache for the whole run; the
     * start writes the candidates back once, so no crash finds it stale and every restart recomputes.
     */
    @Test
    void stateThatOnlyInitializationWritesIsInNvmAtEveryCrash() throws Exception {
        CrashTestEngine.PhaseResult result = phase(new CampaignTarget("test.ReadMostly", ReadMostlyApp::new,
                new String[0]), null, 20);
        assertEquals(20, result.results().size());
        for (CrashTestResult r : result.results()) {
            assertEquals(0.0, r.inconsistentRates().get("table"), r.toString());
        }
        assertEquals(Map.of(CrashTestOutcome.S1, 20), count(result.results()));
    }

    @Test
    void persistingTheCandidateEveryRegionMakesNoStateStale() throws Exception {
        PersistencePlan everyRegion = new PersistencePlan("test.Converging", List.of("update", "norm"),
                List.of("x"), new int[] {1, 1});
        CrashTestEngine.PhaseResult none = phase(40, 1e-9, null, 40);
        CrashTestEngine.PhaseResult persisted = phase(40, 1e-9, everyRegion, 40);
        double staleNone = none.results().stream().mapToDouble(r -> r.inconsistentRates().get("x")).average()
                .orElseThrow();
        double stalePersisted = persisted.results().stream()
                .filter(r -> r.crashedRegion() == 1).mapToDouble(r -> r.inconsistentRates().get("x")).max()
                .orElse(0);
        assertTrue(staleNone > 0, "without persistence a crash leaves dirty lines of x");
        assertEquals(0.0, stalePersisted, "x is written back at the end of the update region, and norm only reads");
    }
}
