package dev.lazarus.recovery.cost;

import org.junit.jupiter.api.Test;

import static dev.lazarus.recovery.cost.EasyCrashEfficiencyTest.HOUR;
import static dev.lazarus.recovery.cost.EasyCrashEfficiencyTest.NVM_RESTART;
import static dev.lazarus.recovery.cost.EasyCrashEfficiencyTest.TEN_YEARS;
import static dev.lazarus.recovery.cost.OverheadAccounting.AS_PRINTED;
import static dev.lazarus.recovery.cost.OverheadAccounting.CHARGED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TauTest {

    private static double tau(double mtbfHours, double checkpointSeconds, double nvmRestart, double overhead) {
        return Tau.of(mtbfHours * HOUR, checkpointSeconds, nvmRestart, overhead, TEN_YEARS);
    }

    private static void assertIncreasing(double[] values, String what) {
        for (int i = 1; i < values.length; i++) {
            assertTrue(values[i] > values[i - 1], what + ": " + java.util.Arrays.toString(values));
        }
    }

    @Test
    void tauIsTheSmallestRecomputabilityThatImprovesEfficiency() {
        SystemParameters p = SystemParameters.of(12 * HOUR, 320, NVM_RESTART, 0.03, TEN_YEARS);
        Tau tau = Tau.solve(p);
        assertTrue(tau.reachable());
        assertEquals(CHARGED, tau.accounting());
        assertTrue(tau.value() > 0.3 && tau.value() < 0.5, tau.toString());
        assertTrue(EasyCrashEfficiency.of(p, tau.value()).improvement(CHARGED) > 0, "tau itself meets the goal");
        assertTrue(EasyCrashEfficiency.of(p, tau.value() - 1e-9).improvement(CHARGED) <= 0, "nothing smaller does");
        assertEquals(tau.value(), Tau.of(12 * HOUR, 320, NVM_RESTART, 0.03, TEN_YEARS));
    }

    @Test
    void tauGrowsAsCheckpointsGetCheaper() {
        // Cheap checkpoints leave little for recomputation to save, so it must succeed more often to pay for t_s.
        double[] taus = {tau(12, 3200, NVM_RESTART, 0.03), tau(12, 320, NVM_RESTART, 0.03),
            tau(12, 32, NVM_RESTART, 0.03)};
        assertIncreasing(taus, "tau for T_chk = 3200, 320, 32");
        // The paper's average R = 0.77 pays at 320 s and 3200 s, not at 32 s once t_s is charged.
        assertTrue(taus[1] < 0.77 && taus[2] > 0.77, java.util.Arrays.toString(taus));
    }

    @Test
    void tauGrowsWithOverheadMtbfAndReloadTime() {
        assertIncreasing(new double[] {tau(12, 320, NVM_RESTART, 0.01), tau(12, 320, NVM_RESTART, 0.03),
            tau(12, 320, NVM_RESTART, 0.05)}, "tau for t_s = 1%, 3%, 5%");
        assertIncreasing(new double[] {tau(3, 320, NVM_RESTART, 0.03), tau(6, 320, NVM_RESTART, 0.03),
            tau(12, 320, NVM_RESTART, 0.03)}, "tau for MTBF = 3, 6, 12 h");
        assertIncreasing(new double[] {tau(12, 320, 1, 0.03), tau(12, 320, 100, 0.03), tau(12, 320, 1000, 0.03)},
                "tau for T'_r = 1, 100, 1000 s");
    }

    @Test
    void withoutOverheadAndWithFastNvmAnyRecomputationHelps() {
        double tau = tau(12, 320, NVM_RESTART, 0.0);
        assertTrue(tau >= 0 && tau < 1e-9, "tau=" + tau);
    }

    /**
     * With a slow reload (T'_r = 3000 s against T_r = 320 s) and no overhead there is a real threshold, and it is the
     * fixed point of Eq. 12: R = f(R) with N' and T'_vain evaluated at R.
     */
    @Test
    void asPrintedTauIsTheFixedPointOfEq12() {
        SystemParameters p = SystemParameters.of(12 * HOUR, 320, 3000, 0.0, TEN_YEARS);
        Tau printed = Tau.solve(p, AS_PRINTED);
        assertTrue(printed.value() > 0.2 && printed.value() < 0.4, printed.toString());
        assertEquals(printed.value(), printed.eq12AtValue(), 1e-9);
        assertEquals(printed.value(), Tau.solve(p).value(), 1e-12, "with t_s = 0 the accountings agree");

        // With t_s > 0, Eq. 12 does not see the overhead and stays below the charged tau.
        Tau charged = Tau.solve(p.withRuntimeOverhead(0.03));
        assertTrue(charged.eq12AtValue() < charged.value(), charged.toString());
        Tau printedWithOverhead = Tau.solve(p.withRuntimeOverhead(0.03), AS_PRINTED);
        assertEquals(printedWithOverhead.value(), printedWithOverhead.eq12AtValue(), 1e-9);
    }

    @Test
    void unreachableWhenReloadingFromNvmCostsMoreThanRollingBack() {
        SystemParameters p = SystemParameters.of(12 * HOUR, 320, 8000, 0.03, TEN_YEARS);
        Tau tau = Tau.solve(p);
        assertFalse(tau.reachable());
        assertEquals(1.0, tau.value());
        assertTrue(Double.isNaN(tau.eq12AtValue()));
        assertEquals(1.0, Tau.of(12 * HOUR, 320, 8000, 0.03, TEN_YEARS));
    }

    @Test
    void doesNotDependOnTheSystemTime() {
        assertEquals(Tau.of(12 * HOUR, 320, 5, 0.03, TEN_YEARS), Tau.of(12 * HOUR, 320, 5, 0.03, 1e6), 1e-11);
    }

    @Test
    void rejectsBadInputWithExactMessages() {
        assertEquals("parameters and accounting must not be null: parameters=null, accounting=CHARGED",
                assertThrows(IllegalArgumentException.class, () -> Tau.solve(null)).getMessage());
        assertEquals("checkpointSeconds must be positive and finite: checkpointSeconds=0.0",
                assertThrows(IllegalArgumentException.class,
                        () -> Tau.of(HOUR, 0, 1, 0.03, TEN_YEARS)).getMessage());
    }
}
