package dev.lazarus.recovery.policy.interval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code --ckpt-every auto}: Daly's interval for MTBF / (1 - R), in iterations. Hand-computed cases. */
class AutoIntervalTest {

    @Test
    void withoutRecomputationItIsDalysIntervalInIterations() {
        // C = 2 s, M = 3600 s: sqrt(2 C M) = 120; C/2M = 1/3600: 120 x (1 + (1/60)/3 + 1/32400) - 2 = 118.670 s.
        AutoInterval interval = AutoInterval.choose(2.0, 0.5, 3600, "configured", Double.NaN);
        assertEquals(118.670, interval.seconds(), 1e-3);
        assertEquals(237, interval.iterations(), "118.67 s / 0.5 s rounded");
        assertEquals(0.0, interval.recomputability(), "unknown R: every failure rolls back");
        assertEquals(3600, interval.rollbackMtbfSeconds());
    }

    @Test
    void recomputationStretchesTheIntervalAsRollbacksGetRarer() {
        // R 0.75: rollbacks every 3600 / 0.25 = 14400 s; sqrt(2 x 2 x 14400) = 240,
        // 240 x (1 + (1/120)/3 + 1/(9 x 14400)) - 2 = 238.668 s.
        AutoInterval interval = AutoInterval.choose(2.0, 0.5, 3600, "configured", 0.75);
        assertEquals(14400, interval.rollbackMtbfSeconds(), 1e-9);
        assertEquals(238.668, interval.seconds(), 1e-3);
        assertEquals(477, interval.iterations());
        assertTrue(interval.describe().startsWith("every 477 iterations (Daly: 238.7 s of compute between checkpoints"
                + " for a checkpoint of 2.0 s; MTBF 1.0 h configured, R 0.75: rollbacks every 4.0 h; iteration"
                + " 500.0 ms)"), interval.describe());
    }

    @Test
    void perfectRecomputationStillCheckpointsForLostNodes() {
        AutoInterval capped = AutoInterval.choose(2.0, 0.5, 3600, "measured", 1.0);
        assertEquals(AutoInterval.MAX_RECOMPUTABILITY, capped.recomputability());
        assertEquals(72000, capped.rollbackMtbfSeconds(), 1e-6, "3600 / 0.05");
    }

    @Test
    void anIterationLongerThanTheIntervalCheckpointsEveryIterationAndBadTimesAreRefused() {
        assertEquals(1, AutoInterval.choose(2.0, 1000, 3600, "configured", 0).iterations());
        assertThrows(IllegalArgumentException.class, () -> AutoInterval.choose(2.0, 0, 3600, "x", 0));
        assertThrows(IllegalArgumentException.class, () -> AutoInterval.choose(0, 1, 3600, "x", 0));
        assertThrows(IllegalArgumentException.class, () -> AutoInterval.choose(1, 1, Double.NaN, "x", 0));
    }
}
