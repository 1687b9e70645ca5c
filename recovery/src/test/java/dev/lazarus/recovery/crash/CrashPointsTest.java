package dev.lazarus.recovery.crash;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Crash points are sorted, distinct, in range, reproducible for a seed, and uniform. */
class CrashPointsTest {

    @Test
    void pointsAreSortedDistinctAndInRange() {
        CrashPoints points = CrashPoints.uniform(1_000, 50_000, 2_000, 42);
        assertEquals(2_000, points.size());
        for (int i = 0; i < points.size(); i++) {
            assertTrue(points.get(i) >= 1_000 && points.get(i) < 50_000, "point " + points.get(i));
            if (i > 0) {
                assertTrue(points.get(i) > points.get(i - 1), "sorted and distinct at " + i);
            }
        }
    }

    @Test
    void theSameSeedGivesTheSamePointsAndAnotherSeedOtherPoints() {
        assertArrayEquals(CrashPoints.uniform(1L << 40, 100, 7).toArray(),
                CrashPoints.uniform(1L << 40, 100, 7).toArray());
        assertFalse(java.util.Arrays.equals(CrashPoints.uniform(1L << 40, 100, 7).toArray(),
                CrashPoints.uniform(1L << 40, 100, 8).toArray()));
    }

    @Test
    void drawingTheWholeRangeGivesEveryPoint() {
        assertArrayEquals(new long[] {5, 6, 7, 8}, CrashPoints.uniform(5, 9, 4, 1).toArray());
        assertEquals(0, CrashPoints.uniform(10, 0, 3).size());
    }

    @Test
    void pointsAreUniformOverTheRange() {
        // 10 buckets of 10,000 accesses, 20,000 points: each bucket expects 2,000 (sd about 42).
        long[] points = CrashPoints.uniform(100_000, 20_000, 3).toArray();
        int[] buckets = new int[10];
        for (long point : points) {
            buckets[(int) (point / 10_000)]++;
        }
        for (int bucket : buckets) {
            assertTrue(Math.abs(bucket - 2_000) < 250, "bucket count " + bucket);
        }
    }

    @Test
    void impossibleDrawsAndUnsortedPointsAreRefused() {
        assertEquals("crash points: cannot draw count=11 distinct accesses from [from=0, to=10)",
                assertThrows(IllegalArgumentException.class, () -> CrashPoints.uniform(10, 11, 1)).getMessage());
        assertEquals("crash points must be non-negative, sorted and distinct: point[2]=4 after 4",
                assertThrows(IllegalArgumentException.class, () -> CrashPoints.of(1, 4, 4)).getMessage());
        assertEquals("crash points must be non-negative, sorted and distinct: point[0]=-1",
                assertThrows(IllegalArgumentException.class, () -> CrashPoints.of(-1)).getMessage());
    }
}
