package dev.lazarus.recovery.selection;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RegionRecomputabilityTest {

    private static void add(List<CrashTestResult> results, int region, CrashTestOutcome outcome, int times) {
        for (int i = 0; i < times; i++) {
            results.add(new CrashTestResult(region, Map.of("u", 0.5), outcome));
        }
    }

    @Test
    void weightsRegionRecomputabilityByMeasuredTime() {
        List<CrashTestResult> results = new ArrayList<>();
        add(results, 0, CrashTestOutcome.S1, 3);   // region 0: 3 of 4 recompute
        add(results, 0, CrashTestOutcome.S2, 1);
        add(results, 1, CrashTestOutcome.S1, 1);   // region 1: 1 of 5
        add(results, 1, CrashTestOutcome.S3, 2);
        add(results, 1, CrashTestOutcome.S4, 2);
        add(results, CrashTestResult.OUTSIDE_MAIN_LOOP, CrashTestOutcome.S1, 2);
        // Region 2 ran but no crash hit it.
        RegionRecomputability campaign = RegionRecomputability.of(results, new double[] {6.0, 3.0, 1.0});

        assertEquals(3, campaign.regionCount());
        assertEquals(new RegionStats(0, 0.6, 4, 3), campaign.region(0));
        assertEquals(new RegionStats(1, 0.3, 5, 1), campaign.region(1));
        assertEquals(0.75, campaign.region(0).recomputability());
        assertEquals(0.2, campaign.region(1).recomputability());
        assertFalse(campaign.region(2).sampled());
        assertEquals(0.0, campaign.region(2).recomputability(), "no evidence counts as not recomputable");
        // Y = 0.6 * 0.75 + 0.3 * 0.2 + 0.1 * 0 = 0.51 (Eq. 1).
        assertEquals(0.51, campaign.applicationRecomputability(), 1e-15);
        // Plain: (3 + 1 + 2) of 11 tests, the two outside the main loop included.
        assertEquals(6.0 / 11, campaign.plainRecomputability(), 1e-15);
        assertEquals(11, campaign.tests());
        assertEquals(6, campaign.recomputed());
        assertEquals(2, campaign.outsideMainLoopTests());
        assertTrue(campaign.region(0).sampled());
    }

    @Test
    void rejectsBadInputWithExactMessages() {
        List<CrashTestResult> one = List.of(new CrashTestResult(3, Map.of(), CrashTestOutcome.S1));
        assertEquals("crash test names a region that was not measured: test=0, crashedRegion=3, regions=2",
                assertThrows(IllegalArgumentException.class,
                        () -> RegionRecomputability.of(one, new double[] {1, 1})).getMessage());
        assertEquals("need at least one crash test: tests=0",
                assertThrows(IllegalArgumentException.class,
                        () -> RegionRecomputability.of(List.of(), new double[] {1})).getMessage());
        List<CrashTestResult> ok = List.of(new CrashTestResult(0, Map.of(), CrashTestOutcome.S1));
        assertEquals("region time must be finite and >= 0: region=1, seconds=-2.0",
                assertThrows(IllegalArgumentException.class,
                        () -> RegionRecomputability.of(ok, new double[] {1, -2})).getMessage());
        assertEquals("region times must add up to a positive finite time: regions=2, totalSeconds=0.0",
                assertThrows(IllegalArgumentException.class,
                        () -> RegionRecomputability.of(ok, new double[] {0, 0})).getMessage());
        assertEquals("need at least one code region: regions=0",
                assertThrows(IllegalArgumentException.class,
                        () -> RegionRecomputability.of(ok, new double[0])).getMessage());
        RegionRecomputability campaign = RegionRecomputability.of(ok, new double[] {1});
        assertEquals("region index out of range: region=1, regions=1",
                assertThrows(IllegalArgumentException.class, () -> campaign.region(1)).getMessage());
        assertEquals("region counts must satisfy 0 <= recomputed <= tests: index=0, tests=1, recomputed=2",
                assertThrows(IllegalArgumentException.class, () -> new RegionStats(0, 0.5, 1, 2)).getMessage());
    }
}
