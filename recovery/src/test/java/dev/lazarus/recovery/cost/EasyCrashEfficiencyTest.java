package dev.lazarus.recovery.cost;

import static dev.lazarus.recovery.cost.OverheadAccounting.AS_PRINTED;
import static dev.lazarus.recovery.cost.OverheadAccounting.CHARGED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.recovery.policy.interval.YoungDaly;

import java.util.Random;
import org.junit.jupiter.api.Test;

class EasyCrashEfficiencyTest {
    static final double HOUR = 3600;
    static final double TEN_YEARS = 10 * 365.25 * 24 * HOUR;
    /** T'_r for 64 GB of data objects at Optane's 39 GB/s read bandwidth (paper Table 9). */
    static final double NVM_RESTART = SystemParameters.nvmRestartSeconds(64_000_000_000L, 39e9);

    /**
     * MTBF 100, T_chk 2 (T = 20, T_vain = 10), T_r 2, T_sync 1, T'_r 0.5, t_s 0, Total 1000, R 0.5 (MTBF' = 200,
     * T' = sqrt(800)). M = 10, N = (1000 - 10 * 13) / 22; M' = M'' = 5,
     * N' = (1000 - 5 (T'/2 + 3) - 5 * 1.5) / (T' + 2).
     */
    @Test
    void matchesAHandWorkedExample() {
        SystemParameters p = new SystemParameters(100, 2, 2, 1, 0.5, 0.0, 1000);
        EasyCrashEfficiency e = EasyCrashEfficiency.of(p, 0.5);
        assertEquals(10, e.crashes(), 1e-12);
        assertEquals(20, e.interval(), 1e-12);
        assertEquals(10, e.lostWork(), 1e-12);
        assertEquals(870.0 / 22, e.checkpoints(), 1e-12);
        assertEquals(870.0 / 22 * 20 / 1000, e.efficiencyWithout(), 1e-12);
        double t = Math.sqrt(800);
        assertEquals(200, e.easyCrashMtbf(), 1e-12);
        assertEquals(t, e.easyCrashInterval(), 1e-12);
        assertEquals(5, e.rollbacks(), 1e-12);
        assertEquals(5, e.recomputations(), 1e-12);
        double n = (1000 - 5 * (t / 2 + 3) - 5 * 1.5) / (t + 2);
        assertEquals(n, e.easyCrashCheckpoints(), 1e-12);
        assertEquals(n * t / 1000, e.efficiencyWith(AS_PRINTED), 1e-12);
        assertEquals(e.efficiencyWith(AS_PRINTED), e.efficiencyWith(CHARGED), 1e-15, "t_s = 0");
    }

    @Test
    void totalsSatisfyEquations6And8AndTheOverheadStretchesTheInterval() {
        SystemParameters p = SystemParameters.of(6 * HOUR, 320, 4, 0.03, TEN_YEARS);
        EasyCrashEfficiency e = EasyCrashEfficiency.of(p, 0.6);
        assertEquals(TEN_YEARS, e.checkpoints() * (e.interval() + 320)
                + e.crashes() * (e.lostWork() + 320 + 160), 1e-3);
        assertEquals(TEN_YEARS, e.easyCrashCheckpoints() * (e.easyCrashInterval() + 320)
                + e.rollbacks() * (e.easyCrashLostWork() + 320 + 160) + e.recomputations() * (4 + 160), 1e-3);
        assertEquals(1.03 * YoungDaly.youngInterval(6 * HOUR / 0.4, 320), e.easyCrashInterval(), 1e-9);
        assertEquals(e.crashes(), e.rollbacks() + e.recomputations(), 1e-9);
        assertEquals(e.efficiencyWith(AS_PRINTED) / 1.03, e.efficiencyWith(CHARGED), 1e-15);
    }

    @Test
    void eq11IsTheAsPrintedImprovementAndEq12HoldsExactlyWhenItIsPositive() {
        Random random = new Random(3L);
        for (int i = 0; i < 200; i++) {
            double tChk = 1 + 5000 * random.nextDouble();
            SystemParameters p = new SystemParameters((1 + 24 * random.nextDouble()) * HOUR, tChk,
                    tChk * 2 * random.nextDouble(), tChk * random.nextDouble(), 100 * random.nextDouble(),
                    0.1 * random.nextDouble(), TEN_YEARS * random.nextDouble() + 1);
            EasyCrashEfficiency e = EasyCrashEfficiency.of(p, 0.99 * random.nextDouble());
            String context = "case " + i + ": " + p + ", R=" + e.recomputability();
            assertEquals(e.improvement(AS_PRINTED), e.eq11Improvement(), 1e-9, context);
            double bound = e.eq12Bound();
            if (!Double.isNaN(bound) && Math.abs(e.improvement(AS_PRINTED)) > 1e-9) {
                assertEquals(e.improvement(AS_PRINTED) > 0, e.recomputability() > bound, context);
            }
        }
    }

    @Test
    void nothingChangesWithoutRecomputationOrOverhead() {
        EasyCrashEfficiency e = EasyCrashEfficiency.of(SystemParameters.of(12 * HOUR, 320, 5, 0, TEN_YEARS), 0.0);
        assertEquals(e.checkpoints(), e.easyCrashCheckpoints(), 1e-9);
        assertEquals(0.0, e.improvement(AS_PRINTED), 1e-15);
        assertEquals(0.0, e.improvement(CHARGED), 1e-15);
    }

    /** Dividing Eq. 6 by Total_Time: efficiency = (1 - (T/2 + T_r + T_sync) / MTBF) * T / (T + T_chk). */
    @Test
    void efficiencyDoesNotDependOnTheSystemTime() {
        double t = YoungDaly.youngInterval(12 * HOUR, 320);
        double expected = (1 - (t / 2 + 320 + 160) / (12 * HOUR)) * t / (t + 320);
        double charged = EasyCrashEfficiency.of(SystemParameters.of(12 * HOUR, 320, 5, 0.03, TEN_YEARS), 0.77)
                .efficiencyWith(CHARGED);
        for (double total : new double[] {1e5, 1e7, TEN_YEARS}) {
            EasyCrashEfficiency e = EasyCrashEfficiency.of(SystemParameters.of(12 * HOUR, 320, 5, 0.03, total), 0.77);
            assertEquals(expected, e.efficiencyWithout(), 1e-12, "total=" + total);
            assertEquals(charged, e.efficiencyWith(CHARGED), 1e-12, "total=" + total);
        }
    }

    /**
     * The paper's §7 setting: MTBF 12 h, 10 years, the average R = 0.77 and t_s = 3%. The paper reports that
     * EasyCrash improves efficiency by about 2%, 6% and 20% for T_chk = 32, 320 and 3200 s (Appendix A.9; 2%-24%
     * across Figure 9). Eq. 10 as printed reproduces that direction and size.
     */
    @Test
    void reproducesThePapersImprovementsAsPrinted() {
        double[] checkpointSeconds = {32, 320, 3200};
        double[][] plausible = {{0.01, 0.04}, {0.04, 0.09}, {0.15, 0.25}};
        double previous = 0;
        for (int i = 0; i < checkpointSeconds.length; i++) {
            SystemParameters p = SystemParameters.of(12 * HOUR, checkpointSeconds[i], NVM_RESTART, 0.03, TEN_YEARS);
            EasyCrashEfficiency e = EasyCrashEfficiency.of(p, 0.77);
            double gain = e.improvement(AS_PRINTED);
            String context = "T_chk=" + checkpointSeconds[i] + ", without=" + e.efficiencyWithout() + ", with="
                    + e.efficiencyWith(AS_PRINTED);
            assertTrue(e.efficiencyWith(AS_PRINTED) > e.efficiencyWithout(), context);
            assertTrue(gain > plausible[i][0] && gain < plausible[i][1], context + ", gain=" + gain);
            assertTrue(gain > previous, "the gain grows with checkpoint cost: " + context);
            previous = gain;
        }
    }

    /**
     * Charging the 3% persistence time against useful work keeps the direction where checkpointing is expensive,
     * but at T_chk = 32 s, where C/R loses only about 4% in all, 3% overhead outweighs what R = 0.77 saves.
     */
    @Test
    void chargingTheOverheadReversesTheCheapCheckpointCase() {
        double[] checkpointSeconds = {32, 320, 3200};
        double[] low = {-0.02, 0.02, 0.14};
        double[] high = {0.0, 0.06, 0.22};
        for (int i = 0; i < checkpointSeconds.length; i++) {
            SystemParameters p = SystemParameters.of(12 * HOUR, checkpointSeconds[i], NVM_RESTART, 0.03, TEN_YEARS);
            double gain = EasyCrashEfficiency.of(p, 0.77).improvement(CHARGED);
            assertTrue(gain > low[i] && gain < high[i], "T_chk=" + checkpointSeconds[i] + ", gain=" + gain);
        }
    }

    @Test
    void rejectsBadInputWithExactMessages() {
        SystemParameters p = SystemParameters.of(HOUR, 10, 1, 0.03, TEN_YEARS);
        assertEquals("recomputability must be in [0, 1): recomputability=1.0",
                assertThrows(IllegalArgumentException.class, () -> EasyCrashEfficiency.of(p, 1.0)).getMessage());
        assertEquals("recomputability must be in [0, 1): recomputability=-0.1",
                assertThrows(IllegalArgumentException.class, () -> EasyCrashEfficiency.of(p, -0.1)).getMessage());
        assertEquals("parameters must not be null: recomputability=0.5",
                assertThrows(IllegalArgumentException.class, () -> EasyCrashEfficiency.of(null, 0.5)).getMessage());
        assertEquals("nvmRestartSeconds must be finite and >= 0: nvmRestartSeconds=-1.0",
                assertThrows(IllegalArgumentException.class,
                        () -> SystemParameters.of(HOUR, 10, -1, 0.03, TEN_YEARS)).getMessage());
        assertEquals("runtimeOverhead must be finite and >= 0: runtimeOverhead=NaN",
                assertThrows(IllegalArgumentException.class,
                        () -> SystemParameters.of(HOUR, 10, 1, Double.NaN, TEN_YEARS)).getMessage());
        assertEquals("totalSeconds must be positive and finite: totalSeconds=0.0",
                assertThrows(IllegalArgumentException.class,
                        () -> SystemParameters.of(HOUR, 10, 1, 0.03, 0)).getMessage());
        assertEquals("dataBytes must be >= 0: dataBytes=-5",
                assertThrows(IllegalArgumentException.class,
                        () -> SystemParameters.nvmRestartSeconds(-5, 1e9)).getMessage());
    }

    @Test
    void defaultsFollowThePaper() {
        SystemParameters p = SystemParameters.of(12 * HOUR, 320, 5, 0.03, TEN_YEARS);
        assertEquals(320, p.restartSeconds(), "T_r = T_chk");
        assertEquals(160, p.syncSeconds(), "T_sync = T_chk / 2");
        assertEquals(2.0, SystemParameters.nvmRestartSeconds(26_000_000_000L, 13e9), 1e-15);
        assertEquals(7.0, p.withRestartSeconds(7).restartSeconds());
        assertEquals(8.0, p.withSyncSeconds(8).syncSeconds());
        assertEquals(0.05, p.withRuntimeOverhead(0.05).runtimeOverhead());
    }
}
