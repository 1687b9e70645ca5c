package dev.lazarus.store.incremental;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.store.CorruptCheckpointException;
import dev.lazarus.store.ElementType;
import dev.lazarus.store.ProtectedRegion;
import dev.lazarus.store.dirty.AllPagesScanner;
import dev.lazarus.store.format.RankManifest;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class IncrementalCheckpointerTest {
    private static final int BLOCK = 512;

    private Path dir;
    private Arena arena;
    private CheckpointDirectory l1;

    @BeforeEach
    void setUp() throws IOException {
        dir = Files.createTempDirectory(Path.of("/dev/shm"), "lazarus-incr-test");
        arena = Arena.ofShared();
        l1 = new CheckpointDirectory(dir.resolve("l1"), "job1");
    }

    @AfterEach
    void tearDown() throws IOException {
        arena.close();
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private MemorySegment mapped(String name, long bytes) throws IOException {
        try (FileChannel channel = FileChannel.open(dir.resolve(name), StandardOpenOption.CREATE,
                StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, bytes, arena);
        }
    }

    private static void fill(MemorySegment memory, long seed) {
        Random random = new Random(seed);
        for (long i = 0; i < memory.byteSize() / 8; i++) {
            memory.setAtIndex(ValueLayout.JAVA_DOUBLE, i, random.nextDouble());
        }
    }

    @Test
    void incrementHoldsOnlyChangedBlocksAndRestoresExactly() throws IOException {
        MemorySegment x = mapped("x", 4 << 20);
        fill(x, 1);
        try (var ckpt = new IncrementalCheckpointer(l1, 0, 1, BLOCK, 10, new AllPagesScanner("all"))) {
            ckpt.protect(ProtectedRegion.of("x", ElementType.DOUBLE, x));
            CheckpointStats first = ckpt.checkpoint(1);
            assertTrue(first.full());
            assertEquals(4 << 20, first.dataBytes());
            byte[] v1 = x.toArray(ValueLayout.JAVA_BYTE);
            // Rewrite every page, change every 20th block: 5% of the blocks.
            for (long block = 0; block < x.byteSize() / BLOCK; block++) {
                long at = block * BLOCK + 8;
                double value = x.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, at);
                x.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, at, block % 20 == 0 ? value + 1 : value);
            }
            CheckpointStats second = ckpt.checkpoint(2);
            assertEquals(1, second.parentVersion());
            assertEquals(4 << 20, second.pageLevelBytes());
            assertEquals((x.byteSize() / BLOCK / 20 + 1) * BLOCK, second.blockLevelBytes());
            assertEquals(second.blockLevelBytes(), second.dataBytes());
            byte[] v2 = x.toArray(ValueLayout.JAVA_BYTE);

            x.fill((byte) 0);
            List<RankManifest> chain = ChainRestorer.restore(l1, 2, 0, 1, ckpt.regions());
            assertEquals(List.of(1L, 2L), chain.stream().map(RankManifest::version).toList());
            assertArrayEquals(v2, x.toArray(ValueLayout.JAVA_BYTE));
            ChainRestorer.restore(l1, 1, 0, 1, ckpt.regions());
            assertArrayEquals(v1, x.toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    void kernelPageTrackingNarrowsHashingToWrittenPages() throws IOException {
        MemorySegment x = mapped("x", 4 << 20);
        fill(x, 3);
        try (var scanner = dev.lazarus.store.dirty.uffd.WrittenPageScanners.open();
             var ckpt = new IncrementalCheckpointer(l1, 0, 1, BLOCK, 10, scanner)) {
            assertTrue(scanner.precise(), scanner.description());
            assertTrue(ckpt.protect(ProtectedRegion.of("x", ElementType.DOUBLE, x)));
            ckpt.checkpoint(1);
            // Every page rewritten, 5% of the blocks changed: pages cannot tell, hashes can.
            for (long block = 0; block < x.byteSize() / BLOCK; block++) {
                long at = block * BLOCK;
                x.set(ValueLayout.JAVA_LONG_UNALIGNED, at, x.get(ValueLayout.JAVA_LONG_UNALIGNED, at)
                        + (block % 20 == 0 ? 1 : 0));
            }
            CheckpointStats rewritten = ckpt.checkpoint(2);
            assertEquals(4 << 20, rewritten.pageLevelBytes());
            assertEquals((x.byteSize() / BLOCK / 20 + 1) * BLOCK, rewritten.blockLevelBytes());
            assertTrue(rewritten.dataBytes() * 10 <= rewritten.fullBytes());
            // Ten pages written: only their blocks are hashed.
            for (int page = 100; page < 110; page++) {
                x.set(ValueLayout.JAVA_LONG, page * 4096L + 64, page);
            }
            CheckpointStats few = ckpt.checkpoint(3);
            assertEquals(10 * 4096, few.pageLevelBytes());
            assertEquals(10 * 4096 / BLOCK, few.blocksHashed());
            assertEquals(10 * BLOCK, few.blockLevelBytes());
            byte[] expected = x.toArray(ValueLayout.JAVA_BYTE);
            x.fill((byte) 0);
            ChainRestorer.restore(l1, 3, 0, 1, ckpt.regions());
            assertArrayEquals(expected, x.toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    void aPartialLastPageIsHashedEveryTime() throws IOException {
        MemorySegment x = mapped("x", 4 * 4096).asSlice(0, 3 * 4096 + 2048);
        try (var scanner = dev.lazarus.store.dirty.uffd.WrittenPageScanners.open();
             var ckpt = new IncrementalCheckpointer(l1, 0, 1, BLOCK, 10, scanner)) {
            assertTrue(ckpt.protect(ProtectedRegion.of("x", ElementType.DOUBLE, x)));
            ckpt.checkpoint(1);
            x.set(ValueLayout.JAVA_LONG, 4096 + 8, 1);
            x.set(ValueLayout.JAVA_LONG, 3 * 4096 + 2040, 2);
            CheckpointStats second = ckpt.checkpoint(2);
            assertEquals(8 + 4, second.blocksHashed());
            assertEquals(2 * BLOCK, second.blockLevelBytes());
            assertEquals(4096 + 2048, second.pageLevelBytes());
            assertTrue(ckpt.pageTracking().endsWith("; 1 of 1 variables page-tracked"), ckpt.pageTracking());
        }
    }

    @Test
    void fullEveryKBoundsTheChain() throws IOException {
        MemorySegment x = mapped("x", 64 << 10);
        try (var ckpt = new IncrementalCheckpointer(l1, 0, 1, BLOCK, 3, new AllPagesScanner("all"))) {
            ckpt.protect(ProtectedRegion.of("x", ElementType.DOUBLE, x));
            long[] parents = new long[7];
            for (int v = 1; v <= 7; v++) {
                x.set(ValueLayout.JAVA_LONG, 8L * v, v);
                parents[v - 1] = ckpt.checkpoint(v).parentVersion();
            }
            assertArrayEquals(new long[] {-1, 1, 2, -1, 4, 5, -1}, parents);
            assertEquals(2, ChainRestorer.chain(l1, 6, 0, 1).size() - 1);
        }
    }

    /**
     * A version in which more than half of the bytes changed is written full (it starts a new chain), one with less
     * stays an increment of the version before; both restore exactly.
     */
    @Test
    void aVersionWithMostBytesChangedIsWrittenFull() throws IOException {
        MemorySegment x = mapped("x", 256 * BLOCK);
        fill(x, 3);
        try (var ckpt = new IncrementalCheckpointer(l1, 0, 1, BLOCK, 100, new AllPagesScanner("all"))) {
            ckpt.protect(ProtectedRegion.of("x", ElementType.DOUBLE, x));
            assertTrue(ckpt.checkpoint(1).full());
            changeBlocks(x, 129); // 129 of 256 blocks: just over half
            CheckpointStats most = ckpt.checkpoint(2);
            assertTrue(most.full(), "parent " + most.parentVersion());
            assertEquals(x.byteSize(), most.dataBytes());
            assertEquals(129L * BLOCK, most.blockLevelBytes());
            byte[] v2 = x.toArray(ValueLayout.JAVA_BYTE);
            changeBlocks(x, 128); // exactly half: not more
            CheckpointStats half = ckpt.checkpoint(3);
            assertEquals(2, half.parentVersion());
            assertEquals(128L * BLOCK, half.dataBytes());
            byte[] v3 = x.toArray(ValueLayout.JAVA_BYTE);

            x.fill((byte) 0);
            assertEquals(1, ChainRestorer.restore(l1, 2, 0, 1, ckpt.regions()).size());
            assertArrayEquals(v2, x.toArray(ValueLayout.JAVA_BYTE));
            x.fill((byte) 0);
            assertEquals(2, ChainRestorer.restore(l1, 3, 0, 1, ckpt.regions()).size());
            assertArrayEquals(v3, x.toArray(ValueLayout.JAVA_BYTE));
        }
    }

    /** Changes one double in each of the first {@code blocks} blocks. */
    private static void changeBlocks(MemorySegment x, int blocks) {
        for (long block = 0; block < blocks; block++) {
            long at = block * BLOCK;
            x.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, at, x.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, at) + 1.0);
        }
    }

    /**
     * On a directory that recycles data files, a pruned version's data file becomes the rank's spare, and the next
     * version overwrites it in place (the same inode, cut to its own length): every version restores exactly.
     */
    @Test
    void aRecyclingDirectoryOverwritesThePrunedVersionsDataFile() throws IOException {
        CheckpointDirectory recycling = new CheckpointDirectory(dir.resolve("l1r"), "job1", true);
        MemorySegment x = mapped("x", 64 * BLOCK);
        fill(x, 5);
        try (var ckpt = new IncrementalCheckpointer(recycling, 0, 1, BLOCK, 1, new AllPagesScanner("all"))) {
            ckpt.protect(ProtectedRegion.of("x", ElementType.DOUBLE, x));
            ckpt.checkpoint(1);
            Object firstFile = Files.getAttribute(recycling.dataFile(1, 0), "unix:ino");
            fill(x, 6);
            ckpt.checkpoint(2);
            assertEquals(java.util.Set.of(1L), dev.lazarus.store.catalog.Retention.prune(recycling, 0, List.of(2L)));
            Path spare = recycling.spareDataFile(0);
            assertEquals(firstFile, Files.getAttribute(spare, "unix:ino"));
            // A longer spare than the next version needs: the version is cut to its own length.
            try (FileChannel grow = FileChannel.open(spare, StandardOpenOption.WRITE)) {
                grow.write(java.nio.ByteBuffer.wrap(new byte[] {1}), x.byteSize() + 4096);
            }
            fill(x, 7);
            ckpt.checkpoint(3);
            byte[] v3 = x.toArray(ValueLayout.JAVA_BYTE);
            assertFalse(Files.exists(spare));
            assertEquals(firstFile, Files.getAttribute(recycling.dataFile(3, 0), "unix:ino"));
            assertEquals(x.byteSize(), Files.size(recycling.dataFile(3, 0)));
            x.fill((byte) 0);
            ChainRestorer.restore(recycling, 3, 0, 1, ckpt.regions());
            assertArrayEquals(v3, x.toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    void preFilterLimitsHashingAndReceivedRangesAreHashedAnyway() throws IOException {
        MemorySegment x = mapped("x", 16 * 4096);
        ScriptedScanner pages = new ScriptedScanner();
        try (var ckpt = new IncrementalCheckpointer(l1, 0, 1, BLOCK, 100, pages)) {
            assertTrue(ckpt.protect(ProtectedRegion.of("x", ElementType.DOUBLE, x)));
            ckpt.checkpoint(1);
            // Page 2 written (one block changed in it); page 9 changed by "the network": no page report.
            x.set(ValueLayout.JAVA_LONG, 2 * 4096 + 1024, 7);
            pages.writtenPages.add(new long[] {2, 1});
            x.set(ValueLayout.JAVA_LONG, 9 * 4096, 9);
            CheckpointStats missed = ckpt.checkpoint(2);
            assertEquals(8, missed.blocksHashed());
            assertEquals(4096, missed.pageLevelBytes());
            assertEquals(BLOCK, missed.blockLevelBytes());

            x.set(ValueLayout.JAVA_LONG, 9 * 4096 + 8, 10);
            assertTrue(ckpt.markReceived(x.asSlice(9 * 4096), 0, 16));
            assertFalse(ckpt.markReceived(new double[4], 0, 16));
            CheckpointStats received = ckpt.checkpoint(3);
            assertEquals(1, received.blocksHashed());
            assertEquals(BLOCK, received.blockLevelBytes());
        }
    }

    @Test
    void heapArraysAndPartialLastBlocksRoundTrip() throws IOException {
        double[] values = new double[1000]; // 8000 bytes: the last 512-byte block holds 320
        int[] keys = new int[77];
        for (int i = 0; i < values.length; i++) {
            values[i] = i * 0.5;
        }
        try (var ckpt = new IncrementalCheckpointer(l1, 0, 1, BLOCK, 10, new AllPagesScanner("all"))) {
            assertFalse(ckpt.protect(ProtectedRegion.of("values", ElementType.DOUBLE, MemorySegment.ofArray(values))));
            ckpt.protect(ProtectedRegion.of("keys", ElementType.INT, MemorySegment.ofArray(keys)));
            ckpt.checkpoint(1);
            values[999] = -1;
            keys[76] = 5;
            CheckpointStats second = ckpt.checkpoint(2);
            assertEquals(320 + 308, second.blockLevelBytes());
            double[] expected = values.clone();
            java.util.Arrays.fill(values, 3);
            java.util.Arrays.fill(keys, 3);
            ChainRestorer.restore(l1, 2, 0, 1, ckpt.regions());
            assertArrayEquals(expected, values);
            assertEquals(5, keys[76]);
            assertEquals(0, keys[0]);
        }
    }

    @Test
    void damagedDataIsFoundAndNamed() throws IOException {
        MemorySegment x = mapped("x", 3 << 20);
        fill(x, 2);
        try (var ckpt = new IncrementalCheckpointer(l1, 0, 1, BLOCK, 10, new AllPagesScanner("all"))) {
            ckpt.protect(ProtectedRegion.of("x", ElementType.DOUBLE, x));
            ckpt.checkpoint(1);
            Path data = l1.dataFile(1, 0);
            byte[] bytes = Files.readAllBytes(data);
            bytes[(2 << 20) + 5] ^= 1;
            Files.write(data, bytes);
            CorruptCheckpointException flipped = assertThrows(CorruptCheckpointException.class,
                    () -> ChainRestorer.restore(l1, 1, 0, 1, ckpt.regions()));
            assertEquals(data + ": chunk 2 (variable x offset=2097152 length=1048576) checksum mismatch",
                    flipped.getMessage());
            Files.write(data, java.util.Arrays.copyOf(bytes, 1000));
            assertEquals(data + ": length=1000 but manifest says 3145728", assertThrows(
                    CorruptCheckpointException.class, () -> ChainRestorer.verify(l1, 1, 0, 1)).getMessage());
        }
    }

    @Test
    void foreignOrMismatchedCheckpointsAreRejected() throws IOException {
        MemorySegment x = mapped("x", 8192);
        try (var ckpt = new IncrementalCheckpointer(l1, 0, 1, BLOCK, 10, new AllPagesScanner("all"))) {
            ckpt.protect(ProtectedRegion.of("x", ElementType.DOUBLE, x));
            ckpt.checkpoint(1);
        }
        CheckpointDirectory other = new CheckpointDirectory(dir.resolve("l1"), "job2");
        Files.createDirectories(other.versionDirectory(1));
        Files.copy(l1.manifestFile(1, 0), other.manifestFile(1, 0));
        assertEquals(other.manifestFile(1, 0) + ": written by job job1, not job2", assertThrows(
                CorruptCheckpointException.class, () -> ChainRestorer.chain(other, 1, 0, 1)).getMessage());
        assertEquals(l1.manifestFile(1, 0) + ": world size 1, expected 4", assertThrows(
                CorruptCheckpointException.class, () -> ChainRestorer.chain(l1, 1, 0, 4)).getMessage());
        MemorySegment y = mapped("y", 4096);
        CorruptCheckpointException shape = assertThrows(CorruptCheckpointException.class,
                () -> ChainRestorer.restore(l1, 1, 0, 1, List.of(ProtectedRegion.of("x", ElementType.DOUBLE, y))));
        assertEquals("version 1 rank 0: variables do not match the protected ones: differing [x:DOUBLE[1024] in the"
                + " checkpoint, x:DOUBLE[512] protected]", shape.getMessage());
        CorruptCheckpointException names = assertThrows(CorruptCheckpointException.class,
                () -> ChainRestorer.restore(l1, 1, 0, 1, List.of(ProtectedRegion.of("u", ElementType.DOUBLE, x))));
        assertEquals("version 1 rank 0: variables do not match the protected ones: not in the checkpoint [u]"
                + " not protected [x]", names.getMessage());
    }

    /** Recovery invariant 4: two launches of a job may protect the same variables in different orders. */
    @Test
    void restoreMatchesVariablesByNameNotByPosition() throws IOException {
        MemorySegment u = mapped("u", 3 * 4096);
        MemorySegment keys = mapped("keys", 4096);
        fill(u, 7);
        for (int i = 0; i < 1024; i++) {
            keys.setAtIndex(ValueLayout.JAVA_INT, i, i * 31);
        }
        try (var ckpt = new IncrementalCheckpointer(l1, 0, 1, BLOCK, 10, new AllPagesScanner("all"))) {
            ckpt.protect(ProtectedRegion.of("u", ElementType.DOUBLE, u));
            ckpt.protect(ProtectedRegion.of("keys", ElementType.INT, keys));
            ckpt.checkpoint(1);
            u.set(ValueLayout.JAVA_DOUBLE, 8, -1.5); // an increment on top, so the whole chain is matched
            keys.setAtIndex(ValueLayout.JAVA_INT, 1000, -4);
            ckpt.checkpoint(2);
        }
        byte[] wantU = u.toArray(ValueLayout.JAVA_BYTE);
        byte[] wantKeys = keys.toArray(ValueLayout.JAVA_BYTE);
        MemorySegment u2 = mapped("u2", 3 * 4096);
        MemorySegment keys2 = mapped("keys2", 4096);
        List<RankManifest> chain = ChainRestorer.restore(l1, 2, 0, 1,
                List.of(ProtectedRegion.of("keys", ElementType.INT, keys2), ProtectedRegion.of("u", ElementType.DOUBLE,
                        u2)));
        assertEquals(2, chain.size());
        assertArrayEquals(wantU, u2.toArray(ValueLayout.JAVA_BYTE));
        assertArrayEquals(wantKeys, keys2.toArray(ValueLayout.JAVA_BYTE));
        CorruptCheckpointException type = assertThrows(CorruptCheckpointException.class,
                () -> ChainRestorer.restore(l1, 2, 0, 1, List.of(ProtectedRegion.of("keys", ElementType.FLOAT, keys2),
                        ProtectedRegion.of("u", ElementType.DOUBLE, u2))));
        assertTrue(type.getMessage().contains("differing [keys:INT[1024] in the checkpoint, keys:FLOAT[1024]"),
                type.getMessage());
    }

    @Test
    void failedCheckpointMakesTheNextOneFull() throws IOException {
        MemorySegment x = mapped("x", 8192);
        try (var ckpt = new IncrementalCheckpointer(l1, 0, 1, BLOCK, 10, new AllPagesScanner("all"))) {
            ckpt.protect(ProtectedRegion.of("x", ElementType.DOUBLE, x));
            ckpt.checkpoint(1);
            Files.createDirectories(l1.versionDirectory(2).getParent());
            Files.writeString(l1.versionDirectory(2), "in the way");
            assertThrows(IOException.class, () -> ckpt.checkpoint(2));
            CheckpointStats third = ckpt.checkpoint(3);
            assertTrue(third.full());
            assertEquals(8192, third.dataBytes());
            assertEquals("version=3 must be greater than the last, 3", assertThrows(
                    IllegalArgumentException.class, () -> ckpt.checkpoint(3)).getMessage());
        }
    }

    @Test
    void filesArePrivate() throws IOException {
        MemorySegment x = mapped("x", 4096);
        try (var ckpt = new IncrementalCheckpointer(l1, 0, 1, BLOCK, 10, new AllPagesScanner("all"))) {
            ckpt.protect(ProtectedRegion.of("x", ElementType.DOUBLE, x));
            ckpt.checkpoint(1);
        }
        for (Path p : List.of(l1.dataFile(1, 0), l1.manifestFile(1, 0))) {
            assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(p)));
        }
        for (Path p : List.of(l1.versionDirectory(1), l1.versionDirectory(1).getParent())) {
            assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(p)));
        }
    }

    @Test
    void parentsOfTheVersionsLastWrittenAreKnown() throws IOException {
        MemorySegment x = mapped("x", 8192);
        try (var ckpt = new IncrementalCheckpointer(l1, 0, 1, BLOCK, 4, new AllPagesScanner("all"))) {
            ckpt.protect(ProtectedRegion.of("x", ElementType.DOUBLE, x));
            for (long v = 1; v <= 1100; v++) {
                CheckpointStats stats = ckpt.checkpoint(v);
                assertEquals(Files.size(l1.manifestFile(v, 0)), stats.manifestBytes());
            }
            assertEquals(OptionalLong.empty(), ckpt.parentOf(1), "only the versions last written are known");
            assertEquals(OptionalLong.of(-1), ckpt.parentOf(1097));
            assertEquals(OptionalLong.of(1099), ckpt.parentOf(1100));
            // A new variable resets the chain; rewriting version 1100 then fails, so its files are not the known ones.
            ckpt.protect(ProtectedRegion.of("y", ElementType.DOUBLE, MemorySegment.ofArray(new double[16])));
            Files.delete(l1.dataFile(1100, 0));
            Files.createDirectory(l1.dataFile(1100, 0));
            assertThrows(IOException.class, () -> ckpt.checkpoint(1100));
            assertEquals(OptionalLong.empty(), ckpt.parentOf(1100));
            assertEquals(OptionalLong.of(1098), ckpt.parentOf(1099));
        }
    }
}
