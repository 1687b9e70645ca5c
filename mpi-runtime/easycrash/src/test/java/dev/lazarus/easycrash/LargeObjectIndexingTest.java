package dev.lazarus.easycrash;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Heap objects at and beyond the length their fast index check covers ({@code MAX_CHECKED_LENGTH}, 2 GiB of
 * elements): every index below the length is reachable and the length itself is refused, on both sides of the
 * boundary, for each element type, and array copies reach the last elements and refuse ranges past them. The objects
 * lie in sparse mapped files, so only the pages touched are written.
 */
class LargeObjectIndexingTest {
    @TempDir
    Path dir;

    /** A read-write mapping of a new sparse file of {@code bytes} bytes, valid while {@code arena} is open. */
    private MemorySegment sparseMapping(Arena arena, String name, long bytes) throws IOException {
        try (FileChannel channel = FileChannel.open(dir.resolve(name), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.SPARSE)) {
            channel.truncate(bytes);
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, bytes, arena);
        }
    }

    @Test
    void doublesBeyondTheCheckedLengthAreReachable() throws IOException {
        int length = MappedDoubleArray.MAX_CHECKED_LENGTH + 3;
        try (Arena arena = Arena.ofConfined()) {
            DoubleArray big = MappedDoubleArray.of("big", ObjectRole.CANDIDATE,
                    sparseMapping(arena, "big", 8L * length), 0, null);
            assertInstanceOf(MappedDoubleArray.Large.class, big);
            assertEquals(length, big.length());
            big.set(length - 1, 2.5);
            big.set(MappedDoubleArray.MAX_CHECKED_LENGTH, -1.25);
            big.set(0, 7.0);
            assertEquals(2.5, big.get(length - 1));
            assertEquals(-1.25, big.get(MappedDoubleArray.MAX_CHECKED_LENGTH));
            assertEquals(7.0, big.get(0));
            assertEquals(0.0, big.get(length - 2));
            assertThrows(IndexOutOfBoundsException.class, () -> big.get(length));
            assertThrows(IndexOutOfBoundsException.class, () -> big.set(-1, 1.0));
            assertThrows(IndexOutOfBoundsException.class, () -> big.set(Integer.MAX_VALUE, 1.0));
            // the loop accessor indexes (int) base + stride * i and goes through the same check
            assertEquals(2.5, big.get(length - 3, 1, 2));
            assertThrows(IndexOutOfBoundsException.class, () -> big.get(length - 3, 1, 3));

            big.copyFrom(new double[] {1.5, -2.5, 3.5, -4.5}, 0, length - 4, 4);
            double[] back = new double[5];
            big.copyTo(length - 5, back, 0, 5);
            assertArrayEquals(new double[] {0.0, 1.5, -2.5, 3.5, -4.5}, back);
            IndexOutOfBoundsException past = assertThrows(IndexOutOfBoundsException.class,
                    () -> big.copyTo(length - 3, back, 0, 4));
            assertEquals("Range [" + (length - 3) + ", " + (length - 3) + " + 4) out of bounds for length " + length,
                    past.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> big.copyFrom(back, 2, length - 3, 4));
            assertEquals(-4.5, big.get(length - 1)); // a refused copy writes nothing
        }
    }

    @Test
    void doublesUpToTheCheckedLengthUseTheFastCheck() throws IOException {
        int length = MappedDoubleArray.MAX_CHECKED_LENGTH;
        try (Arena arena = Arena.ofConfined()) {
            DoubleArray edge = MappedDoubleArray.of("edge", ObjectRole.CANDIDATE,
                    sparseMapping(arena, "edge", 8L * length), 0, null);
            assertFalse(edge instanceof MappedDoubleArray.Large);
            edge.set(length - 1, 4.0);
            assertEquals(4.0, edge.get(length - 1));
            assertThrows(IndexOutOfBoundsException.class, () -> edge.get(length));
            assertThrows(IndexOutOfBoundsException.class, () -> edge.set(length, 1.0));

            edge.copyFrom(new double[] {5.0, 6.0, 7.0}, 1, length - 2, 2);
            double[] tail = new double[3];
            edge.copyTo(length - 3, tail, 0, 3);
            assertArrayEquals(new double[] {0.0, 6.0, 7.0}, tail);
            IndexOutOfBoundsException past = assertThrows(IndexOutOfBoundsException.class,
                    () -> edge.copyTo(length - 1, tail, 0, 2));
            assertEquals("Range [" + (length - 1) + ", " + (length - 1) + " + 2) out of bounds for length " + length,
                    past.getMessage());
            IndexOutOfBoundsException shortTarget = assertThrows(IndexOutOfBoundsException.class,
                    () -> edge.copyTo(0, tail, 2, 2));
            assertEquals("Range [2, 2 + 2) out of bounds for length 3", shortTarget.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> edge.copyFrom(tail, 0, length - 2, 3));
            assertEquals(7.0, edge.get(length - 1)); // a refused copy writes nothing
        }
    }

    @Test
    void intsOnBothSidesOfTheCheckedLength() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            int small = MappedIntArray.MAX_CHECKED_LENGTH;
            IntArray edge = MappedIntArray.of("edge", ObjectRole.CANDIDATE,
                    sparseMapping(arena, "edge", 4L * small), 0, null);
            assertFalse(edge instanceof MappedIntArray.Large);
            edge.set(small - 1, 11);
            assertEquals(11, edge.get(small - 1));
            assertThrows(IndexOutOfBoundsException.class, () -> edge.get(small));

            int length = small + 5;
            IntArray big = MappedIntArray.of("big", ObjectRole.CANDIDATE,
                    sparseMapping(arena, "big", 4L * length), 0, null);
            assertInstanceOf(MappedIntArray.Large.class, big);
            big.set(length - 1, -9);
            big.set(small, 13);
            assertEquals(-9, big.get(length - 1));
            assertEquals(13, big.get(small));
            assertEquals(0, big.get(small + 1));
            assertThrows(IndexOutOfBoundsException.class, () -> big.get(length));
            assertThrows(IndexOutOfBoundsException.class, () -> big.set(-1, 0));

            edge.copyFrom(new int[] {21, 22}, 0, small - 2, 2);
            big.copyFrom(new int[] {31, 32, 33}, 0, small - 1, 3);
            int[] back = new int[4];
            edge.copyTo(small - 3, back, 0, 3);
            assertArrayEquals(new int[] {0, 21, 22, 0}, back);
            big.copyTo(small - 2, back, 0, 4);
            assertArrayEquals(new int[] {0, 31, 32, 33}, back);
            assertThrows(IndexOutOfBoundsException.class, () -> edge.copyFrom(back, 0, small - 1, 2));
            assertThrows(IndexOutOfBoundsException.class, () -> big.copyTo(length - 1, back, 0, 2));
        }
    }

    @Test
    void longsOnBothSidesOfTheCheckedLength() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            int small = MappedLongArray.MAX_CHECKED_LENGTH;
            LongArray edge = MappedLongArray.of("edge", ObjectRole.CANDIDATE,
                    sparseMapping(arena, "edge", 8L * small), 0, null);
            assertFalse(edge instanceof MappedLongArray.Large);
            edge.set(small - 1, Long.MIN_VALUE);
            assertEquals(Long.MIN_VALUE, edge.get(small - 1));
            assertThrows(IndexOutOfBoundsException.class, () -> edge.set(small, 1L));

            int length = small + 1;
            LongArray big = MappedLongArray.of("big", ObjectRole.CANDIDATE,
                    sparseMapping(arena, "big", 8L * length), 0, null);
            assertInstanceOf(MappedLongArray.Large.class, big);
            big.set(small, Long.MAX_VALUE);
            assertEquals(Long.MAX_VALUE, big.get(small));
            assertThrows(IndexOutOfBoundsException.class, () -> big.get(length));

            edge.copyFrom(new long[] {-7L}, 0, small - 1, 1);
            big.copyFrom(new long[] {8L, 9L}, 0, small - 1, 2);
            long[] back = new long[2];
            edge.copyTo(small - 1, back, 1, 1);
            assertArrayEquals(new long[] {0L, -7L}, back);
            big.copyTo(small - 1, back, 0, 2);
            assertArrayEquals(new long[] {8L, 9L}, back);
            assertThrows(IndexOutOfBoundsException.class, () -> edge.copyTo(small - 1, back, 0, 2));
            assertThrows(IndexOutOfBoundsException.class, () -> big.copyFrom(back, 0, length - 1, 2));
        }
    }
}
