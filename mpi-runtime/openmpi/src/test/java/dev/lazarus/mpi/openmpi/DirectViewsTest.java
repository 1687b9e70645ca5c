package dev.lazarus.mpi.openmpi;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DirectViewsTest {

    @Test
    void theSameRangeOfTheSameSegmentGetsTheSameBufferOverItsMemory() {
        DirectViews views = new DirectViews();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment grid = arena.allocate(64 * Double.BYTES);
            grid.setAtIndex(ValueLayout.JAVA_DOUBLE, 9, 4.5);
            ByteBuffer row = views.of(grid, 64, 128);
            assertTrue(row.isDirect());
            assertEquals(128, row.capacity());
            assertEquals(4.5, row.order(ByteOrder.nativeOrder()).getDouble(8));
            assertSame(row, views.of(grid, 64, 128));
            assertNotSame(row, views.of(grid, 64, 120), "another length");
            assertNotSame(row, views.of(grid, 72, 128), "another offset");
            assertNotSame(row, views.of(grid.asSlice(0), 64, 128), "another segment object over the same memory");
        }
    }

    /** A buffer over a closed arena's memory would hand MPI unmapped memory (asSlice and asByteBuffer allow it). */
    @Test
    void aClosedSegmentIsRefusedEvenWhenItsRangeIsKept() {
        DirectViews views = new DirectViews();
        Arena arena = Arena.ofShared();
        MemorySegment grid = arena.allocate(1024);
        views.of(grid, 0, 64);
        arena.close();
        assertThrows(IllegalStateException.class, () -> views.of(grid, 0, 64));
        assertThrows(IllegalStateException.class, () -> views.of(grid, 64, 64), "nor a range never asked for");
    }

    @Test
    void moreRangesThanSlotsStillGiveTheRightBuffersAndOutOfBoundsIsRefused() {
        DirectViews views = new DirectViews();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment grid = arena.allocate(8L * (DirectViews.SLOTS + 4));
            for (int i = 0; i < DirectViews.SLOTS + 4; i++) {
                grid.setAtIndex(ValueLayout.JAVA_LONG, i, i);
            }
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < DirectViews.SLOTS + 4; i++) {
                    assertEquals(i, views.of(grid, 8L * i, 8).order(ByteOrder.nativeOrder()).getLong(0));
                }
            }
            assertThrows(IndexOutOfBoundsException.class, () -> views.of(grid, grid.byteSize() - 4, 8));
        }
    }
}
