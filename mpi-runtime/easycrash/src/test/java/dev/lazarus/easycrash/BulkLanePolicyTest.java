package dev.lazarus.easycrash;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bulk operations go lane-wise once the JVM has run the warm-up's worth of elements element by element. */
class BulkLanePolicyTest {
    @AfterEach
    void startOver() {
        BulkLanePolicy.reset(false);
    }

    @Test
    void elementWiseUntilTheCountIsReachedThenLaneWise() {
        BulkLanePolicy.reset(false);
        long half = BulkLanePolicy.ELEMENTS_BEFORE_LANES / 2;
        assertFalse(BulkLanePolicy.lanewise((int) half), "the first half runs element by element");
        assertFalse(BulkLanePolicy.lanewise((int) half - 1), "one element short of the count");
        assertFalse(BulkLanePolicy.lanewise(1), "this call reaches the count, and still runs element by element");
        assertTrue(BulkLanePolicy.lanewise(1), "every call after it is lane-wise");
        assertTrue(BulkLanePolicy.lanewise(1_000_000));
    }

    @Test
    void aShortRunNeverSwitches() {
        BulkLanePolicy.reset(false);
        // CG class A on one rank: about 1,200 bulk operations of 14,000 elements each.
        for (int call = 0; call < 1200; call++) {
            assertFalse(BulkLanePolicy.lanewise(14_000), "call " + call);
        }
    }

    @Test
    void resetSwitchesAtOnce() {
        BulkLanePolicy.reset(true);
        assertTrue(BulkLanePolicy.lanewise(8));
    }
}
