package dev.lazarus.easycrash;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The loop accessors {@code get/set(base, i[, stride])} of both implementations address the same elements. */
class DoubleArrayLoopAccessTest {
    private static final int LENGTH = 40;

    @TempDir
    Path nvm;

    @Test
    void plainArrayAddressesBasePlusStrideTimesCounter() {
        checkAddressing(DoubleArray.plain("a", LENGTH, ObjectRole.CANDIDATE));
    }

    @Test
    void mappedArrayAddressesBasePlusStrideTimesCounter() throws Exception {
        try (PersistentHeap heap = open()) {
            checkAddressing(heap.doubles("a", LENGTH, ObjectRole.CANDIDATE));
        }
    }

    @Test
    void plainArrayRejectsIndicesOutsideIt() {
        checkBounds(DoubleArray.plain("a", LENGTH, ObjectRole.CANDIDATE));
    }

    @Test
    void mappedArrayRejectsIndicesOutsideIt() throws Exception {
        try (PersistentHeap heap = open()) {
            checkBounds(heap.doubles("a", LENGTH, ObjectRole.CANDIDATE));
        }
    }

    /** A base that a cast to {@code int} would wrap onto element 3 is refused, with the base in the message. */
    @Test
    void plainArrayRefusesABaseBeyondTheIntRange() {
        DoubleArray a = DoubleArray.plain("a", LENGTH, ObjectRole.CANDIDATE);
        long wrapsToThree = (1L << 32) + 3;
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> a.get(wrapsToThree, 0));
        assertEquals("base=4294967299 is outside the int range of object a (length=40)", e.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> a.set(wrapsToThree, 0, 2, 1.0));
    }

    @Test
    void mappedArrayRefusesABaseBeyondTheIntRange() throws Exception {
        try (PersistentHeap heap = open()) {
            DoubleArray a = heap.doubles("a", LENGTH, ObjectRole.CANDIDATE);
            long wrapsToThree = (1L << 32) + 3;
            IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                    () -> a.get(wrapsToThree, 0));
            assertEquals("base=4294967299 is outside the int range of object a (length=40)", e.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> a.set(wrapsToThree, 0, 2, 1.0));
        }
    }

    private PersistentHeap open() throws Exception {
        return PersistentHeap.open(new PersistentHeap.Config(nvm, "loops", 0, 1, 1 << 20, "test", null));
    }

    /** Writes with every accessor form and reads back with the others: the element numbers must agree. */
    private static void checkAddressing(DoubleArray a) {
        for (int i = 0; i < LENGTH; i++) {
            a.set(i, 100.0 + i);
        }
        long row = 10;
        for (int i = 0; i < 5; i++) {
            assertEquals(100.0 + 10 + i, a.get(row, i));
            assertEquals(100.0 + 11 + 2 * i, a.get(row + 1, i, 2));
            assertEquals(100.0 + 10 + 3 * i, a.get(row, i, 3));
        }
        assertEquals(100.0 + 9, a.get(row, -1), "a negative counter reaches before the base");
        for (int i = 0; i < 4; i++) {
            a.set(row, i, -1.0 - i);
            a.set(20, i, 2, -10.0 - i);
        }
        double[] expected = new double[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            expected[i] = 100.0 + i;
        }
        for (int i = 0; i < 4; i++) {
            expected[10 + i] = -1.0 - i;
            expected[20 + 2 * i] = -10.0 - i;
        }
        assertArrayEquals(expected, a.toArray());
    }

    private static void checkBounds(DoubleArray a) {
        assertEquals(0.0, a.get(LENGTH - 1, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> a.get(LENGTH - 1, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> a.get(0, -1));
        assertThrows(IndexOutOfBoundsException.class, () -> a.get(LENGTH - 2, 1, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> a.set(-1, 0, 5.0));
        assertThrows(IndexOutOfBoundsException.class, () -> a.set(LENGTH, 0, 1, 5.0));
        assertThrows(IndexOutOfBoundsException.class, () -> a.get(Integer.MAX_VALUE, 1),
                "a sum that overflows wraps to a negative index, which is refused");
        assertThrows(IndexOutOfBoundsException.class, () -> a.set(Integer.MAX_VALUE, 3, 2, 5.0));
        assertArrayEquals(new double[LENGTH], a.toArray(), "the refused stores wrote nothing");
    }
}
