package dev.lazarus.recovery.policy.interval;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class YoungDalyTest {
    private static final double HOUR = 3600;

    @Test
    void youngIsTheSquareRootOfTwiceCheckpointTimesMtbf() {
        assertEquals(10.0, YoungDaly.youngInterval(50, 1), 1e-15);
        // The paper's 12-hour MTBF: sqrt(2 * 32 * 43200) = sqrt(2764800).
        assertEquals(1662.7687752661222, YoungDaly.youngInterval(12 * HOUR, 32), 1e-9);
        // 100 times the checkpoint time gives 10 times the interval.
        assertEquals(16627.687752661222, YoungDaly.youngInterval(12 * HOUR, 3200), 1e-8);
        assertEquals(5258.136552, YoungDaly.youngInterval(12 * HOUR, 320), 1e-6);
    }

    @Test
    void dalyAddsHigherOrderTerms() {
        // M = 50, delta = 1: delta/(2M) = 0.01, so 10 * (1 + 0.1/3 + 0.01/9) - 1 = 9 + 31/90.
        assertEquals(9.0 + 31.0 / 90.0, YoungDaly.dalyInterval(50, 1), 1e-12);
        // Since sqrt(2 delta M) * sqrt(delta / 2M) = delta, Young - Daly = 2 delta / 3 - Young * delta / (18 M).
        double young = YoungDaly.youngInterval(12 * HOUR, 32);
        assertEquals(2.0 * 32 / 3 - young * 32 / (18 * 12 * HOUR),
                young - YoungDaly.dalyInterval(12 * HOUR, 32), 1e-9);
        assertEquals(1641.5038686, YoungDaly.dalyInterval(12 * HOUR, 32), 1e-6);
    }

    @Test
    void dalyCapsAtTheMtbfWhenCheckpointsCostTwoMtbfs() {
        assertEquals(100.0, YoungDaly.dalyInterval(100, 200));
        assertEquals(100.0, YoungDaly.dalyInterval(100, 1e6));
    }

    @Test
    void lostWorkIsHalfTheInterval() {
        assertEquals(831.3843876330611, YoungDaly.expectedLostWork(YoungDaly.youngInterval(12 * HOUR, 32)), 1e-9);
    }

    @Test
    void rejectsBadInputWithExactMessages() {
        assertEquals("mtbfSeconds must be positive and finite: mtbfSeconds=0.0",
                assertThrows(IllegalArgumentException.class, () -> YoungDaly.youngInterval(0, 1)).getMessage());
        assertEquals("checkpointSeconds must be positive and finite: checkpointSeconds=-1.0",
                assertThrows(IllegalArgumentException.class, () -> YoungDaly.dalyInterval(1, -1)).getMessage());
        assertEquals("mtbfSeconds must be positive and finite: mtbfSeconds=Infinity",
                assertThrows(IllegalArgumentException.class,
                        () -> YoungDaly.dalyInterval(Double.POSITIVE_INFINITY, 1)).getMessage());
        assertEquals("intervalSeconds must be positive and finite: intervalSeconds=NaN",
                assertThrows(IllegalArgumentException.class,
                        () -> YoungDaly.expectedLostWork(Double.NaN)).getMessage());
    }
}
