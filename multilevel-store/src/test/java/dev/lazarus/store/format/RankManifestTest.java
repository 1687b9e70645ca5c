package dev.lazarus.store.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.store.CorruptCheckpointException;
import dev.lazarus.store.ElementType;
import dev.lazarus.store.Variable;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RankManifestTest {

    private static RankManifest sample() {
        ChunkTable chunks = new ChunkTable();
        chunks.add(0, 0, 4096, 0, 0x1234);
        chunks.add(1, 512, 1024, 4096, 0x5678);
        List<Variable> variables = List.of(new Variable("x", ElementType.DOUBLE, new long[] {4, 128}),
                Variable.vector("keys", ElementType.INT, 1000));
        return new RankManifest("job-1", 3, 8, 42, 41, 512, variables, chunks, PageFilter.TRACKED);
    }

    @Test
    void roundTripKeepsEveryField() throws Exception {
        RankManifest decoded = RankManifest.decode(sample().encode(), "m");
        assertEquals("job-1", decoded.job());
        assertEquals(3, decoded.rank());
        assertEquals(8, decoded.worldSize());
        assertEquals(42, decoded.version());
        assertEquals(41, decoded.parentVersion());
        assertEquals(512, decoded.blockSize());
        assertEquals(sample().variables(), decoded.variables());
        assertArrayEquals(new long[] {4, 128}, decoded.variables().get(0).shape());
        assertEquals(ElementType.INT, decoded.variables().get(1).type());
        assertEquals(2, decoded.chunks().size());
        assertEquals(512, decoded.chunks().variableOffset(1));
        assertEquals(4096, decoded.chunks().dataOffset(1));
        assertEquals(0x5678, decoded.chunks().crc(1));
        assertEquals(5120, decoded.dataLength());
        assertEquals(PageFilter.TRACKED, decoded.pageFilter());
    }

    /** The field was zero before it was the page filter: such manifests read as unknown; other values fail. */
    @Test
    void thePageFilterReadsZeroAsUnknownAndRejectsUnknownCodes() throws Exception {
        byte[] bytes = sample().encode();
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(ManifestLayout.PAGE_FILTER_OFFSET, 0);
        recrc(bytes);
        assertEquals(PageFilter.UNKNOWN, RankManifest.decode(bytes, "m").pageFilter());
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(ManifestLayout.PAGE_FILTER_OFFSET, 9);
        recrc(bytes);
        assertEquals("m: page filter=9 unknown", assertThrows(CorruptCheckpointException.class,
                () -> RankManifest.decode(bytes, "m")).getMessage());
        assertEquals(PageFilter.ALL_PAGES, PageFilter.of(List.of(PageFilter.TRACKED, PageFilter.ALL_PAGES)));
        assertEquals(PageFilter.UNKNOWN, PageFilter.of(List.of(PageFilter.TRACKED, PageFilter.UNKNOWN)));
        assertEquals(PageFilter.TRACKED, PageFilter.of(List.of(PageFilter.TRACKED, PageFilter.TRACKED)));
    }

    @Test
    void everyFlippedByteIsDetected() {
        byte[] bytes = sample().encode();
        for (int i = 0; i < bytes.length; i++) {
            byte[] damaged = bytes.clone();
            damaged[i] ^= 0x20;
            int at = i;
            assertThrows(CorruptCheckpointException.class, () -> RankManifest.decode(damaged, "m"),
                    () -> "flip at " + at + " not detected");
        }
    }

    @Test
    void truncationAndForeignFilesHaveClearReasons() {
        byte[] bytes = sample().encode();
        CorruptCheckpointException truncated = assertThrows(CorruptCheckpointException.class,
                () -> RankManifest.decode(Arrays.copyOf(bytes, bytes.length - 9), "m"));
        assertEquals("m: length=" + (bytes.length - 9) + " but header says " + bytes.length
                + " (truncated or extended)", truncated.getMessage());
        byte[] text = "#!/bin/sh\necho this is not a manifest at all, but long enough to pass the size check....\n"
                .getBytes();
        assertEquals("m: not a Lazarus manifest (bad magic)",
                assertThrows(CorruptCheckpointException.class, () -> RankManifest.decode(text, "m")).getMessage());
    }

    @Test
    void hugeCountsWithAValidChecksumAreRejectedWithoutAllocating() {
        byte[] bytes = sample().encode();
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(ManifestLayout.CHUNK_COUNT_OFFSET, -1);
        recrc(bytes);
        assertEquals("m: chunks=4294967295 do not fill the 64 bytes left",
                assertThrows(CorruptCheckpointException.class, () -> RankManifest.decode(bytes, "m")).getMessage());
        byte[] world = sample().encode();
        ByteBuffer.wrap(world).order(ByteOrder.LITTLE_ENDIAN).putInt(ManifestLayout.RANK_OFFSET, 8);
        recrc(world);
        assertEquals("m: rank=8 world=8 invalid",
                assertThrows(CorruptCheckpointException.class, () -> RankManifest.decode(world, "m")).getMessage());
    }

    @Test
    void chunksOutsideTheirVariableAreRejected() {
        ChunkTable chunks = new ChunkTable();
        chunks.add(0, 4000, 200, 0, 0);
        RankManifest bad = new RankManifest("j", 0, 1, 1, -1, 512, List.of(Variable.vector("v", ElementType.BYTE,
                4096)), chunks, PageFilter.ALL_PAGES);
        assertEquals("m: chunk 0 offset=4000 length=200 outside variable v",
                assertThrows(CorruptCheckpointException.class, () -> RankManifest.decode(bad.encode(), "m"))
                        .getMessage());
    }

    @Test
    void oversizedFileIsRejectedUnread(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("rank-0.manifest");
        try (RandomAccessFile sparse = new RandomAccessFile(file.toFile(), "rw")) {
            sparse.setLength(ManifestLayout.MAX_MANIFEST_BYTES + 1L);
        }
        CorruptCheckpointException e = assertThrows(CorruptCheckpointException.class, () -> ManifestFiles.read(file));
        assertTrue(e.getMessage().endsWith("size=268435457 exceeds 268435456"), e.getMessage());
        assertEquals(dir.resolve("none") + ": missing", assertThrows(CorruptCheckpointException.class,
                () -> ManifestFiles.read(dir.resolve("none"))).getMessage());
    }

    @Test
    void publishedManifestIsPrivateAndWhole(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("rank-3.manifest");
        ManifestFiles.publish(file, sample());
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(file)));
        assertEquals(42, ManifestFiles.read(file).version());
        assertEquals(List.of(file), Files.list(dir).toList());
    }

    @Test
    void publishReturnsTheFileSize(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("rank-3.manifest");
        long bytes = ManifestFiles.publish(file, sample());
        assertEquals(Files.size(file), bytes);
        assertEquals(sample().encode().length, bytes);
    }

    private static void recrc(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(bytes.length - 4, (int) crc.getValue());
    }
}
