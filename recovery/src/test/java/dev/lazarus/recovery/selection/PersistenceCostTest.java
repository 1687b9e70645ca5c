package dev.lazarus.recovery.selection;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PersistenceCostTest {

    @Test
    void invalidatingFlushesCostTwice() {
        PersistenceCost clwb = new PersistenceCost(2e-9, 1000, false);
        PersistenceCost clflushopt = new PersistenceCost(2e-9, 1000, true);
        assertEquals(2e-6, clwb.secondsPerOperation(), 1e-20);
        assertEquals(4e-6, clflushopt.secondsPerOperation(), 1e-20);
    }

    @Test
    void bytesRoundUpToWholeCacheLines() {
        assertEquals(1, PersistenceCost.forBytes(1e-9, 1, false).lines());
        assertEquals(1, PersistenceCost.forBytes(1e-9, 64, false).lines());
        assertEquals(2, PersistenceCost.forBytes(1e-9, 65, false).lines());
        // MG's 1.2 GB of critical data (paper Table 1) is 18.75 million lines.
        assertEquals(18_750_000, PersistenceCost.forBytes(1e-9, 1_200_000_000L, false).lines());
    }

    @Test
    void rejectsBadInputWithExactMessages() {
        assertEquals("secondsPerLine must be positive and finite: secondsPerLine=0.0",
                assertThrows(IllegalArgumentException.class, () -> new PersistenceCost(0, 1, false)).getMessage());
        assertEquals("lines must be >= 1: lines=0",
                assertThrows(IllegalArgumentException.class, () -> new PersistenceCost(1e-9, 0, true)).getMessage());
        assertEquals("bytes must be >= 1: bytes=0",
                assertThrows(IllegalArgumentException.class,
                        () -> PersistenceCost.forBytes(1e-9, 0, true)).getMessage());
    }
}
