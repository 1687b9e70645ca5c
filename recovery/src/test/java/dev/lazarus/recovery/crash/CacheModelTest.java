package dev.lazarus.recovery.crash;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** LRU, write-back, CLWB, the NVM image and dirty-byte counting, on tiny caches where every line is accounted for. */
class CacheModelTest {
    private static final int LINE = 64;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private Arena arena;
    private MemorySegment heap;

    @BeforeEach
    void allocateHeap() {
        arena = Arena.ofConfined();
        heap = arena.allocate(64 * 1024, 4096);
        for (long offset = 0; offset < heap.byteSize(); offset += 8) {
            heap.set(LONG, offset, 0x1000_0000L + offset); // untraced: taken as already in NVM
        }
    }

    @AfterEach
    void freeHeap() {
        arena.close();
    }

    private static CacheConfig config(String spec) {
        return CacheConfig.parse(spec);
    }

    /** A traced store followed by the write, as the data objects do it. */
    private void write(CacheModel model, long address, long value) {
        model.store(address, 8);
        heap.set(LONG, address, value);
    }

    private static long line(long number) {
        return number * LINE;
    }

    @Test
    void lruEvictsTheLeastRecentlyUsedWayOfTheSetOnly() {
        CacheModel model = new CacheModel(config("256:2"), heap); // 2 sets x 2 ways: even lines in set 0
        model.load(line(1), 8);
        model.load(line(0), 8);
        model.load(line(2), 8);
        model.load(line(0), 8); // line 0 is now more recent than line 2
        model.load(line(4), 8);
        assertTrue(model.holds(0, line(0)));
        assertFalse(model.holds(0, line(2)), "line 2 was least recently used in set 0");
        assertTrue(model.holds(0, line(4)));
        assertTrue(model.holds(0, line(1)), "set 1 is not touched by set 0's traffic");
        model.load(line(6), 8);
        assertFalse(model.holds(0, line(0)), "line 0 became least recently used after line 4 came in");
        assertTrue(model.holds(0, line(4)));
        assertTrue(model.holds(0, line(6)));
        assertEquals(5, model.misses(0));
        assertEquals(6, model.accessCount());
    }

    @Test
    void nonPowerOfTwoSetCountsIndexByModulo() {
        CacheModel model = new CacheModel(config("192:1"), heap); // 3 sets x 1 way
        model.load(line(0), 8);
        model.load(line(1), 8);
        model.load(line(2), 8);
        assertTrue(model.holds(0, line(0)) && model.holds(0, line(1)) && model.holds(0, line(2)));
        model.load(line(3), 8); // 3 mod 3 = 0: replaces line 0 and nothing else
        assertFalse(model.holds(0, line(0)));
        assertTrue(model.holds(0, line(1)) && model.holds(0, line(2)) && model.holds(0, line(3)));
        model.load(line(5), 8); // 5 mod 3 = 2 (a mask of 2 would give set 0 or 1)
        assertFalse(model.holds(0, line(2)));
        assertTrue(model.holds(0, line(3)) && model.holds(0, line(1)));
    }

    @Test
    void storeThenCrashLeavesTheOldBytesInNvmAndTheNewInMemory() {
        CacheModel model = new CacheModel(CacheConfig.paperTable4(), heap);
        long address = 4096 + 8;
        long old = heap.get(LONG, address);
        write(model, address, 42L);
        CrashSnapshot snapshot = model.snapshot();
        assertEquals(old, snapshot.nvmLong(address));
        assertEquals(42L, heap.get(LONG, address));
        assertEquals(heap.get(LONG, address + 8), snapshot.nvmLong(address + 8));
        assertEquals(1, snapshot.dirtyLines());
        assertEquals(0, snapshot.nvmLineWrites());
        assertTrue(model.isDirty(address));
        // A second store to the dirty line keeps the first backup: NVM still has the value from before the first.
        write(model, address, 43L);
        assertEquals(old, model.snapshot().nvmLong(address));
    }

    @Test
    void evictingADirtyLineFromTheLastLevelWritesItBackToNvm() {
        CacheModel model = new CacheModel(config("256:2"), heap);
        write(model, line(0), 7L);
        assertEquals(0x1000_0000L, model.snapshot().nvmLong(line(0)));
        model.load(line(2), 8);
        model.load(line(4), 8); // set 0 is full: line 0 is evicted
        assertFalse(model.holds(0, line(0)));
        assertEquals(1, model.nvmLineWrites());
        assertEquals(0, model.dirtyLineCount());
        assertEquals(7L, model.snapshot().nvmLong(line(0)));
        // Evicting a clean line writes nothing.
        model.load(line(6), 8);
        model.load(line(8), 8);
        assertEquals(1, model.nvmLineWrites());
    }

    @Test
    void persistWritesBackTheRangeOnlyAndKeepsItsLinesCached() {
        CacheModel model = new CacheModel(CacheConfig.paperTable4(), heap);
        ObjectRange a = new ObjectRange("a", 4096, 1024);
        ObjectRange b = new ObjectRange("b", 8192, 1024);
        for (long offset = 0; offset < 1024; offset += 8) {
            write(model, a.offset() + offset, -offset);
            write(model, b.offset() + offset, -offset - 1);
        }
        assertEquals(32, model.dirtyLineCount());
        model.persist(a.offset(), a.length());
        assertEquals(16, model.dirtyLineCount());
        assertEquals(16, model.nvmLineWrites());
        byte[] image = model.nvmImage(0, heap.byteSize());
        for (long offset = 0; offset < 1024; offset += 8) {
            assertEquals(-offset, MemorySegment.ofArray(image).get(LONG, a.offset() + offset));
            assertEquals(0x1000_0000L + b.offset() + offset, MemorySegment.ofArray(image).get(LONG,
                    b.offset() + offset), "b was not persisted: NVM keeps its old bytes");
        }
        assertEquals(0, model.levelOf(a.offset()), "CLWB keeps the line cached");
        assertFalse(model.isDirty(a.offset()));
        model.persist(a.offset(), a.length());
        assertEquals(16, model.nvmLineWrites(), "persisting clean lines writes nothing");
        // A range far larger than the dirty-line table takes the table-scan path; the result must be the same.
        model.persist(0, 1L << 40);
        assertEquals(0, model.dirtyLineCount());
        assertEquals(32, model.nvmLineWrites());
        assertArrayEquals(heap.toArray(ValueLayout.JAVA_BYTE), model.nvmImage(0, heap.byteSize()));
    }

    @Test
    void dirtyBytesCountOnlyBytesThatDifferFromNvm() {
        CacheModel model = new CacheModel(CacheConfig.paperTable4(), heap);
        long x = 4096;
        long old = heap.get(LONG, x);
        write(model, x, old ^ 0x0000_00ff_0000_00ffL); // bytes 0 and 4 change
        write(model, x + 64, heap.get(LONG, x + 64)); // a dirty line whose value did not change
        assertEquals(2, model.dirtyLineCount());
        assertEquals(2, model.dirtyBytes(x, 128));
        assertEquals(1, model.dirtyBytes(x, 4));
        assertEquals(1, model.dirtyBytes(x + 4, 4));
        assertEquals(1, model.dirtyBytes(x + 1, 5), "partial words are compared byte by byte");
        assertEquals(0, model.dirtyBytes(x + 64, 64));
        InconsistencyReport report = model.inconsistency(List.of(new ObjectRange("u", x, 128),
                new ObjectRange("v", x + 128, 64)));
        assertEquals(2, report.dirtyBytes("u"));
        assertEquals(2.0 / 128, report.rate("u"));
        assertEquals(0.0, report.rate(1));
        assertEquals("u dirty=2/128 rate=0.015625\nv dirty=0/64 rate=0.000000\n", report.toString());
        write(model, x, old); // written back to its old value: still dirty, but consistent again
        assertEquals(0, model.dirtyBytes(x, 128));
        assertTrue(model.isDirty(x));
    }

    @Test
    void nonZeroByteCountMatchesAByteLoop() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(1);
        for (int i = 0; i < 100_000; i++) {
            long x = random.nextLong();
            x &= random.nextLong() | random.nextLong(); // plenty of zero bytes
            int expected = 0;
            for (int b = 0; b < 8; b++) {
                expected += ((x >>> (8 * b)) & 0xff) != 0 ? 1 : 0;
            }
            assertEquals(expected, LineBackups.nonZeroBytes(x), Long.toHexString(x));
        }
        assertEquals(8, LineBackups.nonZeroBytes(0x8080808080808080L));
        assertEquals(8, LineBackups.nonZeroBytes(0x0101010101010101L));
    }

    @Test
    void anEvictionFromL1LeavesTheDirtyLineInL2AndNvmUntouched() {
        CacheModel model = new CacheModel(config("128:1,1K:2"), heap); // L1: 2 sets x 1 way
        write(model, line(0), 9L);
        model.load(line(2), 8); // L1 set 0 conflict
        assertFalse(model.holds(0, line(0)));
        assertEquals(1, model.levelOf(line(0)));
        assertTrue(model.isDirty(line(0)), "the dirt went down with the line");
        assertEquals(0, model.nvmLineWrites());
        assertEquals(0x1000_0000L, model.snapshot().nvmLong(line(0)));
        model.load(line(0), 8);
        assertEquals(0, model.levelOf(line(0)), "an L2 hit fills L1 again");
    }

    @Test
    void inclusionBackInvalidatesALineHotInL1WhenTheLastLevelEvictsIt() {
        CacheModel model = new CacheModel(config("128:2,128:2"), heap); // one set of 2 ways in each level
        write(model, line(0), 5L);
        model.load(line(1), 8);
        model.load(line(0), 8); // an L1 hit: the last level's LRU does not see it, line 0 stays its oldest
        model.load(line(2), 8);
        assertEquals(-1, model.levelOf(line(0)), "inclusive: leaving L2 means leaving L1 too");
        assertTrue(model.holds(0, line(1)) && model.holds(0, line(2)));
        assertEquals(1, model.nvmLineWrites());
        assertEquals(5L, model.snapshot().nvmLong(line(0)));
    }

    @Test
    void aStraddlingAccessTouchesBothLines() {
        CacheModel model = new CacheModel(CacheConfig.paperTable4(), heap);
        model.store(line(3) - 4, 8);
        assertTrue(model.isDirty(line(2)) && model.isDirty(line(3)));
        assertEquals(2, model.dirtyLineCount());
        assertEquals(1, model.accessCount());
    }

    @Test
    void aStoreOutsideTheHeapIsRefused() {
        CacheModel model = new CacheModel(CacheConfig.paperTable4(), heap);
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                () -> model.store(heap.byteSize(), 8));
        assertEquals("store to line address=65536 outside the heap size=65536", e.getMessage());
        assertEquals("NVM image offset=0 length=65537 must lie in the heap size=65536 and fit a byte[]",
                assertThrows(IllegalArgumentException.class, () -> model.nvmImage(0, 65537)).getMessage());
    }

    @Test
    void iterationAndRegionFollowTheMainLoopMarks() {
        CacheModel model = new CacheModel(CacheConfig.paperTable4(), heap);
        assertEquals(-1, model.iteration());
        assertEquals(0, model.region());
        model.iterationBegin(3);
        model.regionEnd(0, 3);
        model.regionEnd(1, 3);
        model.regionEnd(1, 3); // a region ending twice is still region 1
        assertEquals(3, model.iteration());
        assertEquals(2, model.region());
        model.iterationBegin(4);
        assertEquals(0, model.region());
        CrashSnapshot snapshot = model.snapshot();
        assertEquals(4, snapshot.iteration());
        assertEquals(0, snapshot.region());
    }

    @Test
    void matchesAStraightforwardReferenceHierarchyOnRandomTraffic() {
        // Non-power-of-two sets in L2 and L3 and a heap of 128 lines: constant evictions at every level.
        CacheConfig config = config("512:2,960:3,1792:4");
        MemorySegment small = heap.asSlice(0, 8192);
        CacheModel model = new CacheModel(config, small);
        ReferenceHierarchy reference = new ReferenceHierarchy(config, small);
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        for (int step = 0; step < 200_000; step++) {
            int choice = random.nextInt(100);
            long address = random.nextLong(small.byteSize() / 8) * 8;
            if (choice < 55) {
                model.load(address, 8);
                reference.access(address, false);
            } else if (choice < 98) {
                reference.access(address, true);
                model.store(address, 8);
                small.set(LONG, address, random.nextInt(4)); // often unchanged: exercises byte counting
            } else {
                long length = 1 + random.nextLong(2048);
                model.persist(address, length);
                reference.persist(address, length);
            }
            assertEquals(reference.nvmWrites(), model.nvmLineWrites(), "step " + step);
            assertEquals(reference.dirtyLines(), model.dirtyLineCount(), "step " + step);
            if (step % 997 == 0) {
                for (long lineAddress = 0; lineAddress < small.byteSize(); lineAddress += LINE) {
                    assertEquals(reference.levelOf(lineAddress), model.levelOf(lineAddress), "step " + step);
                    for (int level = 0; level < 3; level++) {
                        assertEquals(reference.holds(level, lineAddress), model.holds(level, lineAddress));
                    }
                }
                assertArrayEquals(reference.nvmImage(), model.nvmImage(0, small.byteSize()), "step " + step);
                assertEquals(reference.dirtyBytes(), model.dirtyBytes(0, small.byteSize()), "step " + step);
            }
        }
        assertNotEquals(0, model.nvmLineWrites());
    }
}
