package dev.lazarus.recovery.crash;

import dev.lazarus.easycrash.trace.AccessTracer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One traced run yields N snapshots, in order, each equal to what a run crashed at that point leaves. */
class SnapshottingTracerTest {
    private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE;
    private static final int N = 1024;
    private static final long U = 4096;
    private static final long R = U + N * 8;
    private static final List<ObjectRange> OBJECTS = List.of(new ObjectRange("u", U, N * 8),
            new ObjectRange("r", R, N * 8));
    /** Small enough that the 16 KiB of objects are evicted all the time. */
    private static final CacheConfig CACHE = CacheConfig.parse("2K:4,4K:4,6K:6");

    private Arena arena;

    @BeforeEach
    void open() {
        arena = Arena.ofConfined();
    }

    @AfterEach
    void close() {
        arena.close();
    }

    /** Thrown by {@link CrashAt} to stop the application, like a power failure. */
    private static final class Crash extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Crash() {
            super(null, null, false, false);
        }
    }

    /** Emulates a crashed run: stops the application just before access {@code point}. */
    private record CrashAt(CacheModel model, long point) implements AccessTracer {
        public void load(long address, int bytes) {
            if (model.accessCount() == point) {
                throw new Crash();
            }
            model.load(address, bytes);
        }

        public void store(long address, int bytes) {
            if (model.accessCount() == point) {
                throw new Crash();
            }
            model.store(address, bytes);
        }

        public void persist(long address, long length) {
            model.persist(address, length);
        }

        public void regionEnd(int region, int iteration) {
            model.regionEnd(region, iteration);
        }

        public void iterationBegin(int iteration) {
            model.iterationBegin(iteration);
        }
    }

    private MemorySegment freshHeap() {
        MemorySegment heap = arena.allocate(R + N * 8, 4096);
        for (int i = 0; i < N; i++) {
            heap.set(DOUBLE, U + i * 8L, Math.sin(i));
        }
        return heap;
    }

    /** A deterministic Jacobi-like solver with three regions, persisting u at the end of region 1. */
    private static void run(MemorySegment heap, AccessTracer tracer) {
        for (int it = 1; it <= 4; it++) {
            tracer.iterationBegin(it);
            for (int i = 1; i < N - 1; i++) {
                tracer.load(U + (i - 1) * 8L, 8);
                tracer.load(U + (i + 1) * 8L, 8);
                double value = 0.5 * (heap.get(DOUBLE, U + (i - 1) * 8L) + heap.get(DOUBLE, U + (i + 1) * 8L));
                tracer.store(R + i * 8L, 8);
                heap.set(DOUBLE, R + i * 8L, value);
            }
            tracer.regionEnd(0, it);
            for (int i = 0; i < N; i++) {
                tracer.load(R + i * 8L, 8);
                tracer.store(U + i * 8L, 8);
                heap.set(DOUBLE, U + i * 8L, heap.get(DOUBLE, R + i * 8L));
            }
            tracer.persist(U, N * 8);
            tracer.regionEnd(1, it);
            for (int i = 0; i < N; i += 3) {
                tracer.load(U + i * 8L, 8);
            }
            tracer.regionEnd(2, it);
        }
    }

    private long countAccesses() {
        CountingTracer counter = new CountingTracer();
        run(freshHeap(), counter);
        assertEquals(4, counter.iterations());
        assertEquals(4, counter.persistCount());
        assertEquals(0, counter.mainLoopStart());
        return counter.accessCount();
    }

    @Test
    void oneRunStreamsExactlyNSnapshotsInOrder() {
        long total = countAccesses();
        CrashPoints points = CrashPoints.uniform(total, 40, 11);
        MemorySegment heap = freshHeap();
        List<CrashSnapshot> seen = new ArrayList<>();
        SnapshottingTracer tracer = new SnapshottingTracer(new CacheModel(CACHE, heap), points, OBJECTS, U,
                2L * N * 8, seen::add);
        run(heap, tracer);
        assertEquals(40, seen.size());
        assertEquals(40, tracer.taken());
        assertTrue(tracer.done());
        for (int i = 0; i < seen.size(); i++) {
            assertEquals(i, seen.get(i).ordinal());
            assertEquals(points.get(i), seen.get(i).accessIndex());
            assertEquals(U, seen.get(i).imageOffset());
            assertEquals(2L * N * 8, seen.get(i).imageLength());
            assertTrue(seen.get(i).iteration() >= 1 && seen.get(i).region() <= 3);
        }
        assertEquals(total, tracer.model().accessCount());
    }

    @Test
    void eachSnapshotEqualsARunCrashedAtItsPoint() {
        long total = countAccesses();
        CrashPoints points = CrashPoints.uniform(total, 12, 5);
        MemorySegment heap = freshHeap();
        List<CrashSnapshot> streamed = new ArrayList<>();
        run(heap, new SnapshottingTracer(new CacheModel(CACHE, heap), points, OBJECTS, 0, -1, streamed::add));
        boolean sawInconsistency = false;
        for (CrashSnapshot snapshot : streamed) {
            MemorySegment crashedHeap = freshHeap();
            CacheModel crashed = new CacheModel(CACHE, crashedHeap);
            assertThrows(Crash.class, () -> run(crashedHeap, new CrashAt(crashed, snapshot.accessIndex())));
            CrashSnapshot expected = crashed.snapshot(OBJECTS);
            assertArrayEquals(expected.nvmImage().toArray(ValueLayout.JAVA_BYTE),
                    snapshot.nvmImage().toArray(ValueLayout.JAVA_BYTE), snapshot.toString());
            assertEquals(expected.iteration(), snapshot.iteration());
            assertEquals(expected.region(), snapshot.region());
            assertEquals(expected.dirtyLines(), snapshot.dirtyLines());
            assertEquals(expected.nvmLineWrites(), snapshot.nvmLineWrites());
            for (int i = 0; i < OBJECTS.size(); i++) {
                assertEquals(expected.inconsistency().dirtyBytes(i), snapshot.inconsistency().dirtyBytes(i));
            }
            sawInconsistency |= snapshot.inconsistency().totalDirtyBytes() > 0;
            // The image really is what NVM held: restoring it changes the crashed heap only in dirty bytes.
            long differing = 0;
            MemorySegment restored = arena.allocate(crashedHeap.byteSize(), 4096);
            restored.copyFrom(crashedHeap);
            snapshot.copyImageTo(restored);
            for (long b = 0; b < restored.byteSize(); b++) {
                differing += restored.get(ValueLayout.JAVA_BYTE, b) != crashedHeap.get(ValueLayout.JAVA_BYTE, b)
                        ? 1 : 0;
            }
            assertEquals(snapshot.inconsistency().totalDirtyBytes(), differing);
        }
        assertTrue(sawInconsistency, "some crash must catch unpersisted stores");
    }

    @Test
    void theMainLoopPositionIsReportedAtTheCrash() {
        MemorySegment heap = freshHeap();
        long perIteration = 3L * (N - 2) + 2L * N + (N + 2) / 3;
        long inRegion1OfIteration3 = 2 * perIteration + 3L * (N - 2) + 5;
        List<CrashSnapshot> seen = new ArrayList<>();
        run(heap, new SnapshottingTracer(new CacheModel(CACHE, heap), CrashPoints.of(0, inRegion1OfIteration3),
                OBJECTS, U, 16, seen::add));
        assertEquals(1, seen.get(0).iteration());
        assertEquals(0, seen.get(0).region());
        assertEquals(0, seen.get(0).dirtyLines());
        assertEquals(3, seen.get(1).iteration());
        assertEquals(1, seen.get(1).region());
        assertNotEquals(0, seen.get(1).inconsistency().dirtyBytes("r"));
    }

    @Test
    void pointsPastTheRunNeverFireAndPastPointsAreRefused() {
        long total = countAccesses();
        MemorySegment heap = freshHeap();
        List<CrashSnapshot> seen = new ArrayList<>();
        SnapshottingTracer tracer = new SnapshottingTracer(new CacheModel(CACHE, heap),
                CrashPoints.of(total - 1, total), seen::add);
        run(heap, tracer);
        assertEquals(1, tracer.taken());
        assertEquals(false, tracer.done());
        CacheModel used = tracer.model();
        assertEquals("snapshot image offset=4096 length=1000000 must lie in the heap size=" + heap.byteSize()
                        + " and fit a byte[]",
                assertThrows(IllegalArgumentException.class, () -> new SnapshottingTracer(new CacheModel(CACHE, heap),
                        CrashPoints.of(1), OBJECTS, U, 1_000_000, seen::add)).getMessage());
        assertEquals("crash point=3 is already past: the model has seen accessCount=" + total,
                assertThrows(IllegalArgumentException.class,
                        () -> new SnapshottingTracer(used, CrashPoints.of(3), seen::add)).getMessage());
    }
}
