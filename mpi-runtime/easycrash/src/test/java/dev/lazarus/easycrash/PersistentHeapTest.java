package dev.lazarus.easycrash;

import dev.lazarus.easycrash.heap.HeapLayout;
import dev.lazarus.easycrash.trace.AccessTracer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Real mapped files: re-attach by name, and every way a heap can be unusable is caught, never computed on. */
class PersistentHeapTest {
    private static final long CAPACITY = 1 << 20;

    @TempDir
    Path nvm;

    private PersistentHeap.Config config(String job, int rank, int size, String signature) {
        return new PersistentHeap.Config(nvm, job, rank, size, CAPACITY, signature, null);
    }

    /** Writes u = 0,1,2.. and bookmarks iteration 7, as a run that then crashes would. */
    private void firstRun(PersistentHeap.Config config) throws Exception {
        try (PersistentHeap heap = PersistentHeap.open(config)) {
            assertEquals(RecoveryState.Kind.FRESH, heap.recovery().kind());
            DoubleArray u = heap.doubles("u", 1000, ObjectRole.CANDIDATE);
            for (int i = 0; i < u.length(); i++) {
                u.set(i, i);
            }
            heap.ints("colidx", 10, ObjectRole.REINITIALIZED).set(3, 42);
            heap.persist(0, List.of(u));
            heap.bookmark(7);
        }
    }

    @Test
    void reattachesObjectsByNameAndResumesAtTheBookmark() throws Exception {
        firstRun(config("job1", 0, 2, "app --class S"));
        try (PersistentHeap heap = PersistentHeap.open(config("job1", 0, 2, "app --class S"))) {
            assertEquals(RecoveryState.Kind.RESUMABLE, heap.recovery().kind(), heap.recovery().reason());
            assertEquals(7, heap.recovery().iteration());
            DoubleArray u = heap.doubles("u", 1000, ObjectRole.CANDIDATE);
            assertEquals(999.0, u.get(999));
            assertEquals(42, heap.ints("colidx", 10, ObjectRole.REINITIALIZED).get(3));
            assertEquals(0, u.heapOffset() % HeapLayout.PAGE);
        }
        Path job = nvm.resolve("job1");
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(job)));
        assertEquals("rw-------", PosixFilePermissions.toString(
                Files.getPosixFilePermissions(job.resolve("rank-0.heap"))));
    }

    private RecoveryState reopen(PersistentHeap.Config config) throws Exception {
        try (PersistentHeap heap = PersistentHeap.open(config)) {
            RecoveryState state = heap.recovery();
            if (state.kind() == RecoveryState.Kind.UNUSABLE) {
                assertEquals(0.0, heap.doubles("u", 1000, ObjectRole.CANDIDATE).get(999), "a fresh heap");
            }
            return state;
        }
    }

    private static void assertUnusable(RecoveryState state, String because) {
        assertEquals(RecoveryState.Kind.UNUSABLE, state.kind(), state.reason());
        assertTrue(state.reason().contains(because), state.reason());
    }

    @Test
    void differentRankCountIsUnusable() throws Exception {
        firstRun(config("job2", 0, 2, "app"));
        assertUnusable(reopen(config("job2", 0, 4, "app")), "was written by a job of 2 ranks, this job has 4");
    }

    @Test
    void otherApplicationIsUnusable() throws Exception {
        firstRun(config("job3", 0, 1, "npb.CG --class S"));
        assertUnusable(reopen(config("job3", 0, 1, "npb.CG --class W")), "heap was written by 'npb.CG --class S'");
    }

    @Test
    void truncatedHeapIsUnusable() throws Exception {
        firstRun(config("job4", 0, 1, "app"));
        try (RandomAccessFile file = new RandomAccessFile(nvm.resolve("job4/rank-0.heap").toFile(), "rw")) {
            file.setLength(CAPACITY / 2);
        }
        assertUnusable(reopen(config("job4", 0, 1, "app")), "is truncated");
        assertTrue(Files.exists(nvm.resolve("job4/rank-0.heap.unusable")), "kept aside for inspection");
    }

    @Test
    void missingHeapWithADirectoryIsUnusable() throws Exception {
        firstRun(config("job5", 0, 1, "app"));
        Files.delete(nvm.resolve("job5/rank-0.heap"));
        assertUnusable(reopen(config("job5", 0, 1, "app")), "is missing");
    }

    @Test
    void foreignHeapIsUnusable() throws Exception {
        firstRun(config("jobA", 0, 1, "app"));
        Files.createDirectories(nvm.resolve("jobB"));
        Files.copy(nvm.resolve("jobA/rank-0.heap"), nvm.resolve("jobB/rank-0.heap"));
        Files.copy(nvm.resolve("jobA/rank-0.objects"), nvm.resolve("jobB/rank-0.objects"));
        assertUnusable(reopen(config("jobB", 0, 1, "app")), "belongs to another job");
        Files.write(nvm.resolve("jobA/rank-0.heap"), new byte[(int) CAPACITY]);
        assertUnusable(reopen(config("jobA", 0, 1, "app")), "not a Lazarus heap");
    }

    @Test
    void tornBookmarkIsUnusable() throws Exception {
        firstRun(config("job6", 0, 1, "app"));
        flipByte(nvm.resolve("job6/rank-0.heap"), HeapLayout.BOOKMARK_OFFSET + HeapLayout.BOOKMARK_ITERATION_OFFSET);
        assertUnusable(reopen(config("job6", 0, 1, "app")), "bookmark is torn");
    }

    @Test
    void aTornBookmarkWriteLeavesTheOneBeforeIt() throws Exception {
        firstRun(config("job6b", 0, 1, "app")); // bookmarks 7 in the first slot
        try (PersistentHeap heap = PersistentHeap.open(config("job6b", 0, 1, "app"))) {
            heap.doubles("u", 1000, ObjectRole.CANDIDATE);
            heap.ints("colidx", 10, ObjectRole.REINITIALIZED);
            heap.bookmark(8); // the second slot
            heap.bookmark(9); // the first slot again
        }
        long first = HeapLayout.BOOKMARK_OFFSET;
        long second = first + HeapLayout.BOOKMARK_SLOT_BYTES;
        flipByte(nvm.resolve("job6b/rank-0.heap"), first + HeapLayout.BOOKMARK_ITERATION_OFFSET);
        try (PersistentHeap heap = PersistentHeap.open(config("job6b", 0, 1, "app"))) {
            assertEquals(RecoveryState.Kind.RESUMABLE, heap.recovery().kind(), heap.recovery().reason());
            assertEquals(8, heap.recovery().iteration(), "the bookmark before the torn one");
            heap.doubles("u", 1000, ObjectRole.CANDIDATE);
            heap.ints("colidx", 10, ObjectRole.REINITIALIZED);
            heap.bookmark(9); // over the torn slot, not over 8
        }
        flipByte(nvm.resolve("job6b/rank-0.heap"), second + HeapLayout.BOOKMARK_CRC_OFFSET);
        RecoveryState state = reopen(config("job6b", 0, 1, "app"));
        assertEquals(RecoveryState.Kind.RESUMABLE, state.kind(), state.reason());
        assertEquals(9, state.iteration());
    }

    @Test
    void corruptHeaderIsUnusable() throws Exception {
        firstRun(config("job7", 0, 1, "app"));
        flipByte(nvm.resolve("job7/rank-0.heap"), HeapLayout.TOP_OFFSET + 1);
        assertUnusable(reopen(config("job7", 0, 1, "app")), "corrupt header");
    }

    @Test
    void crashInTheMiddleOfAPersistenceOperationIsUnusable() throws Exception {
        firstRun(config("job8", 0, 1, "app"));
        try (RandomAccessFile file = new RandomAccessFile(nvm.resolve("job8/rank-0.heap").toFile(), "rw")) {
            file.seek(HeapLayout.MARKER_OFFSET);
            file.writeLong(Long.reverseBytes(3)); // region 2 was persisting
        }
        assertUnusable(reopen(config("job8", 0, 1, "app")), "crashed during a persistence operation (region 2)");
    }

    @Test
    void corruptObjectDirectoryIsUnusable() throws Exception {
        firstRun(config("job9", 0, 1, "app"));
        Path objects = nvm.resolve("job9/rank-0.objects");
        byte[] garbage = new byte[(int) Files.size(objects)];
        java.util.Arrays.fill(garbage, (byte) 0x5a);
        Files.write(objects, garbage);
        assertUnusable(reopen(config("job9", 0, 1, "app")), "object directory");
    }

    @Test
    void mismatchedObjectShapeAndBadNamesAreRefused() throws Exception {
        firstRun(config("job10", 0, 1, "app"));
        try (PersistentHeap heap = PersistentHeap.open(config("job10", 0, 1, "app"))) {
            assertEquals("object u is DOUBLE[1000] in the heap but DOUBLE[10] was asked for",
                    assertThrows(IllegalStateException.class,
                            () -> heap.doubles("u", 10, ObjectRole.CANDIDATE)).getMessage());
            assertThrows(IllegalArgumentException.class, () -> heap.doubles("../etc", 1, ObjectRole.CANDIDATE));
        }
        assertThrows(IllegalArgumentException.class, () -> config("../x", 0, 1, "app"));
    }

    @Test
    void heapKilledDuringSetUpStartsOverClean() throws Exception {
        try (PersistentHeap heap = PersistentHeap.open(config("job12", 0, 1, "app"))) {
            heap.doubles("a", 1000, ObjectRole.CANDIDATE).set(5, 7.0);
            heap.doubles("b", 60_000, ObjectRole.CANDIDATE); // no bookmark: killed before the main loop
        }
        try (PersistentHeap heap = PersistentHeap.open(config("job12", 0, 1, "app"))) {
            assertEquals(RecoveryState.Kind.FRESH, heap.recovery().kind());
            assertEquals("heap exists but no iteration was bookmarked yet", heap.recovery().reason());
            assertEquals(0.0, heap.doubles("a", 1000, ObjectRole.CANDIDATE).get(5), "a clean heap");
            heap.doubles("b", 60_000, ObjectRole.CANDIDATE);
            heap.doubles("c", 60_000, ObjectRole.CANDIDATE); // the space the first run used is free again
        }
    }

    /**
     * A rank killed between creating its heap file and its object directory (the directory's first creation takes
     * seconds on a busy machine) left nothing to resume: that is a fresh start, not unusable NVM state.
     */
    @Test
    void heapKilledBeforeItsDirectoryWasWrittenStartsFresh() throws Exception {
        try (PersistentHeap heap = PersistentHeap.open(config("job13", 0, 1, "app"))) {
            assertEquals(RecoveryState.Kind.FRESH, heap.recovery().kind());
        }
        Files.delete(nvm.resolve("job13/rank-0.objects"));
        try (PersistentHeap heap = PersistentHeap.open(config("job13", 0, 1, "app"))) {
            assertEquals(RecoveryState.Kind.FRESH, heap.recovery().kind(), heap.recovery().reason());
            assertEquals("heap exists but no iteration was bookmarked yet", heap.recovery().reason());
            heap.doubles("u", 1000, ObjectRole.CANDIDATE);
        }
        assertTrue(Files.isRegularFile(nvm.resolve("job13/rank-0.objects")), "a new directory");
    }

    @Test
    void bookmarkedHeapWithoutItsDirectoryIsUnusable() throws Exception {
        firstRun(config("job14", 0, 1, "app"));
        Files.delete(nvm.resolve("job14/rank-0.objects"));
        assertUnusable(reopen(config("job14", 0, 1, "app")), "rank-0.objects is missing");
    }

    @Test
    void fullHeapSaysHowFull() throws Exception {
        try (PersistentHeap heap = PersistentHeap.open(config("job11", 0, 1, "app"))) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> heap.doubles("big", (int) CAPACITY, ObjectRole.CANDIDATE));
            assertTrue(e.getMessage().contains("is full"), e.getMessage());
        }
    }

    /**
     * What a persistence operation writes back, as the campaign's cache model sees it: the whole object until the
     * application declares changes, then the span of the ranges declared since the previous operation (nothing when
     * none), and everything again before the first bookmark.
     */
    @Test
    void persistenceWritesBackTheDeclaredChangesOnceAnObjectDeclaresThem() throws Exception {
        List<String> persisted = new ArrayList<>();
        AccessTracer recorder = new AccessTracer() {
            public void load(long address, int bytes) {
            }

            public void store(long address, int bytes) {
            }

            public void persist(long address, long length) {
                persisted.add(address + "+" + length);
            }

            public void regionEnd(int region, int iteration) {
            }

            public void iterationBegin(int iteration) {
            }
        };
        try (PersistentHeap heap = PersistentHeap.open(
                new PersistentHeap.Config(nvm, "job15", 0, 1, CAPACITY, "app", recorder))) {
            DoubleArray tallies = heap.doubles("tallies", 1400, ObjectRole.CANDIDATE);
            long at = tallies.heapOffset();
            heap.persist(0, List.of(tallies));
            assertEquals(List.of(at + "+" + 11200), persisted, "undeclared: the whole object");

            persisted.clear();
            tallies.changed(14, 14);
            heap.persist(0, List.of(tallies));
            tallies.changed(28, 14);
            tallies.changed(140, 14);
            heap.persist(0, List.of(tallies));
            heap.persist(0, List.of(tallies));
            tallies.changed(0, 0);
            heap.persist(0, List.of(tallies));
            assertEquals(List.of((at + 8 * 14) + "+" + 8 * 14, (at + 8 * 28) + "+" + 8 * 126), persisted,
                    "one slot, then the span of two; then nothing was declared");

            persisted.clear();
            tallies.changed(14, 14);
            heap.persistBeforeFirstBookmark(List.of(tallies));
            heap.persist(0, List.of(tallies));
            assertEquals(List.of(at + "+" + 11200), persisted, "whole before the first bookmark; the span cleared");
            assertThrows(IndexOutOfBoundsException.class, () -> tallies.changed(1390, 14));
        }
    }

    private static void flipByte(Path file, long offset) throws Exception {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(offset);
            int b = raf.read();
            raf.seek(offset);
            raf.write(b ^ 0xff);
        }
    }
}
