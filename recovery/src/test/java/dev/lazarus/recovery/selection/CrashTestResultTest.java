package dev.lazarus.recovery.selection;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CrashTestResultTest {

    @Test
    void onlyS1CountsAsRecomputed() {
        assertTrue(CrashTestOutcome.S1.recomputed());
        assertFalse(CrashTestOutcome.S2.recomputed(), "extra iterations are a restart, not a recomputation");
        assertFalse(CrashTestOutcome.S3.recomputed());
        assertFalse(CrashTestOutcome.S4.recomputed());
    }

    @Test
    void keepsAnImmutableCopyOfTheRates() {
        Map<String, Double> rates = new HashMap<>(Map.of("u", 0.25, "r", 0.0));
        CrashTestResult result = new CrashTestResult(2, rates, CrashTestOutcome.S2);
        rates.put("u", 0.9);
        assertEquals(0.25, result.inconsistentRate("u"));
        assertThrows(UnsupportedOperationException.class, () -> result.inconsistentRates().put("x", 0.1));
    }

    @Test
    void acceptsTheEndsOfTheRateRangeAndOutsideTheMainLoop() {
        CrashTestResult result = new CrashTestResult(CrashTestResult.OUTSIDE_MAIN_LOOP, Map.of("a", 0.0, "b", 1.0),
                CrashTestOutcome.S4);
        assertEquals(-1, result.crashedRegion());
        assertEquals(1.0, result.inconsistentRate("b"));
    }

    @Test
    void rejectsBadInputNamingTheValue() {
        assertEquals("crashedRegion must be a region index or -1 (outside the main loop): crashedRegion=-2",
                assertThrows(IllegalArgumentException.class,
                        () -> new CrashTestResult(-2, Map.of(), CrashTestOutcome.S1)).getMessage());
        assertEquals("inconsistent rate must be in [0, 1]: object=u, rate=1.5",
                assertThrows(IllegalArgumentException.class,
                        () -> new CrashTestResult(0, Map.of("u", 1.5), CrashTestOutcome.S1)).getMessage());
        assertEquals("inconsistent rate must be in [0, 1]: object=u, rate=NaN",
                assertThrows(IllegalArgumentException.class,
                        () -> new CrashTestResult(0, Map.of("u", Double.NaN), CrashTestOutcome.S1)).getMessage());
        Map<String, Double> withNull = new HashMap<>();
        withNull.put("p", null);
        assertEquals("inconsistent rate must be in [0, 1]: object=p, rate=null",
                assertThrows(IllegalArgumentException.class,
                        () -> new CrashTestResult(0, withNull, CrashTestOutcome.S1)).getMessage());
        assertEquals("outcome must not be null: crashedRegion=3",
                assertThrows(IllegalArgumentException.class,
                        () -> new CrashTestResult(3, Map.of(), null)).getMessage());
        CrashTestResult result = new CrashTestResult(0, Map.of("u", 0.5), CrashTestOutcome.S1);
        assertEquals("crash test has no inconsistent rate for the object: object=q, objects=[u]",
                assertThrows(IllegalArgumentException.class, () -> result.inconsistentRate("q")).getMessage());
    }
}
