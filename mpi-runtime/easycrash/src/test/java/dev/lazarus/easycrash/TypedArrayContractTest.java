package dev.lazarus.easycrash;

import dev.lazarus.mpi.ElementType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.ValueLayout;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The typed arrays behave the same in a persistent heap (a real mapped file) and as plain Java arrays (EasyCrash off):
 * an application written once gets the same results from both, and the same exceptions for bad indices and ranges.
 */
class TypedArrayContractTest {
    private static final int N = 37;

    @TempDir
    Path nvm;

    private PersistentHeap heap;

    @BeforeEach
    void openHeap() throws Exception {
        heap = PersistentHeap.open(new PersistentHeap.Config(nvm, "contract", 0, 1, 1 << 20, "contract", null));
    }

    @AfterEach
    void closeHeap() {
        heap.close();
    }

    private DoubleArray doubles(String kind, String name) {
        return kind.equals("mapped") ? heap.doubles(name, N, ObjectRole.CANDIDATE)
                : DoubleArray.plain(name, N, ObjectRole.CANDIDATE);
    }

    private IntArray ints(String kind, String name) {
        return kind.equals("mapped") ? heap.ints(name, N, ObjectRole.CANDIDATE)
                : IntArray.plain(name, N, ObjectRole.CANDIDATE);
    }

    private LongArray longs(String kind, String name) {
        return kind.equals("mapped") ? heap.longs(name, N, ObjectRole.CANDIDATE)
                : LongArray.plain(name, N, ObjectRole.CANDIDATE);
    }

    private static double[] ramp(int n, double start) {
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            values[i] = start + i;
        }
        return values;
    }

    @ParameterizedTest
    @ValueSource(strings = {"mapped", "plain"})
    void elementsReadBackWhatWasWrittenAndStartAtZero(String kind) {
        DoubleArray d = doubles(kind, "d");
        IntArray i = ints(kind, "i");
        LongArray l = longs(kind, "l");
        assertEquals(0.0, d.get(N - 1));
        assertEquals(0, i.get(N - 1));
        assertEquals(0L, l.get(N - 1));
        for (int k = 0; k < N; k++) {
            d.set(k, k * 0.5);
            i.set(k, -k);
            l.set(k, (long) k << 40);
        }
        for (int k = 0; k < N; k++) {
            assertEquals(k * 0.5, d.get(k));
            assertEquals(-k, i.get(k));
            assertEquals((long) k << 40, l.get(k));
        }
        assertEquals(N, d.length());
        assertEquals(8L * N, d.byteSize());
        assertEquals(4L * N, i.byteSize());
        assertEquals(ElementType.DOUBLE, d.elementType());
        assertEquals(ElementType.INT, i.elementType());
        assertEquals(ElementType.LONG, l.elementType());
        assertEquals(kind.equals("mapped"), d.persistent());
        assertEquals("d", d.name());
    }

    @ParameterizedTest
    @ValueSource(strings = {"mapped", "plain"})
    void indicesOutsideTheArrayThrowAndChangeNothing(String kind) {
        DoubleArray d = doubles(kind, "d");
        IntArray i = ints(kind, "i");
        d.fill(7.0);
        assertThrows(IndexOutOfBoundsException.class, () -> d.get(N));
        assertThrows(IndexOutOfBoundsException.class, () -> d.get(-1));
        assertThrows(IndexOutOfBoundsException.class, () -> d.set(N, 1.0));
        assertThrows(IndexOutOfBoundsException.class, () -> i.set(-1, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> d.copyFrom(new double[4], 0, N - 3, 4));
        assertThrows(IndexOutOfBoundsException.class, () -> d.copyFrom(new double[4], 1, 0, 4));
        assertThrows(IndexOutOfBoundsException.class, () -> d.copyTo(N - 2, new double[8], 0, 3));
        assertThrows(IndexOutOfBoundsException.class, () -> d.copyTo(0, new double[2], 0, 3));
        assertThrows(IndexOutOfBoundsException.class, () -> d.copyTo(0, d, N - 1, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> d.copyFrom(new double[N - 1]));
        for (int k = 0; k < N; k++) {
            assertEquals(7.0, d.get(k), "element " + k);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"mapped", "plain"})
    void rangeCopiesMoveExactlyTheRangeAsked(String kind) {
        DoubleArray d = doubles(kind, "d");
        d.copyFrom(ramp(N, 100));
        assertArrayEquals(ramp(N, 100), d.toArray());

        d.copyFrom(new double[] {-1, -2, -3, -4}, 1, 10, 2);
        assertEquals(109.0, d.get(9));
        assertEquals(-2.0, d.get(10));
        assertEquals(-3.0, d.get(11));
        assertEquals(112.0, d.get(12));

        double[] out = new double[6];
        d.copyTo(9, out, 2, 4);
        assertArrayEquals(new double[] {0, 0, 109, -2, -3, 112}, out);
    }

    @ParameterizedTest
    @ValueSource(strings = {"mapped", "plain"})
    void intAndLongRangeCopiesMoveExactlyTheRangeAskedAndRefuseBadRanges(String kind) {
        IntArray i = ints(kind, "i");
        LongArray l = longs(kind, "l");
        i.fill(5);
        l.fill(-5L);
        i.copyFrom(new int[] {1, 2, 3, 4}, 1, N - 3, 3);
        l.copyFrom(new long[] {10L, 20L, 30L}, 2, 0, 1);
        assertEquals(5, i.get(N - 4));
        assertEquals(2, i.get(N - 3));
        assertEquals(4, i.get(N - 1));
        assertEquals(30L, l.get(0));
        assertEquals(-5L, l.get(1));

        int[] ints = new int[5];
        i.copyTo(N - 2, ints, 3, 2);
        assertArrayEquals(new int[] {0, 0, 0, 3, 4}, ints);
        long[] longs = new long[3];
        l.copyTo(0, longs, 1, 2);
        assertArrayEquals(new long[] {0L, 30L, -5L}, longs);

        assertThrows(IndexOutOfBoundsException.class, () -> i.copyFrom(new int[4], 0, N - 3, 4));
        assertThrows(IndexOutOfBoundsException.class, () -> i.copyTo(0, new int[2], 1, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> l.copyFrom(new long[4], 2, 0, 3));
        assertThrows(IndexOutOfBoundsException.class, () -> l.copyTo(N - 1, new long[4], 0, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> l.copyTo(0, new long[4], 0, -1));
        assertEquals(2, i.get(N - 3), "a refused copy changes nothing");
        assertEquals(-5L, l.get(N - 1), "a refused copy changes nothing");
    }

    @ParameterizedTest
    @ValueSource(strings = {"mapped", "plain"})
    void overlappingCopiesWithinOneArrayBehaveLikeArraycopy(String kind) {
        IntArray i = ints(kind, "i");
        int[] expected = new int[N];
        for (int k = 0; k < N; k++) {
            i.set(k, k);
            expected[k] = k;
        }
        i.copyTo(0, i, 3, 10);
        System.arraycopy(expected, 0, expected, 3, 10);
        i.copyTo(5, i, 1, 10);
        System.arraycopy(expected, 5, expected, 1, 10);
        assertArrayEquals(expected, i.toArray());
    }

    @ParameterizedTest
    @ValueSource(strings = {"mapped", "plain"})
    void copiesBetweenTheTwoImplementationsAgree(String kind) {
        LongArray from = longs(kind, "from");
        LongArray to = longs(kind.equals("mapped") ? "plain" : "mapped", "to");
        for (int k = 0; k < N; k++) {
            from.set(k, 1000L + k);
        }
        from.copyTo(4, to, 0, 5);
        to.copyTo(0, from, 20, 5);
        assertEquals(1004L, to.get(0));
        assertEquals(1008L, to.get(4));
        assertEquals(0L, to.get(5));
        assertEquals(1004L, from.get(20));
        assertEquals(1008L, from.get(24));
        assertEquals(1025L, from.get(25));
    }

    @ParameterizedTest
    @ValueSource(strings = {"mapped", "plain"})
    void theSegmentShowsTheElementsForMpiAndCheckpoints(String kind) {
        DoubleArray d = doubles(kind, "d");
        d.set(3, 2.5);
        assertEquals(2.5, d.segment().getAtIndex(ValueLayout.JAVA_DOUBLE, 3));
        d.segment().setAtIndex(ValueLayout.JAVA_DOUBLE, 4, -1.0);
        assertEquals(-1.0, d.get(4));
        assertEquals(kind.equals("mapped"), d.segment().isNative());
    }

    @Test
    void plainObjectsAreInNoHeap() {
        DoubleArray d = doubles("plain", "d");
        assertFalse(d.persistent());
        assertEquals(-1, d.heapOffset());
        assertTrue(d.segment().heapBase().isPresent());
    }
}
