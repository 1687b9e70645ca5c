package dev.lazarus.store.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Random;

class DataFileWriterTest {
    @TempDir
    Path dir;

    /**
     * Chunks of odd sizes, from native and heap memory, past several O_DIRECT buffers and ending inside a block:
     * the direct file equals the ordinary one byte for byte, with the same chunk table, and is 0600.
     */
    @Test
    void directWritesProduceTheSameFileAsOrdinaryOnes() throws IOException {
        Random random = new Random(17);
        byte[] heap = new byte[ManifestLayout.MAX_CHUNK_BYTES];
        random.nextBytes(heap);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nativeMemory = arena.allocate(ManifestLayout.MAX_CHUNK_BYTES);
            nativeMemory.copyFrom(MemorySegment.ofArray(heap));
            int[] lengths = new int[23];
            for (int i = 0; i < lengths.length; i++) {
                lengths[i] = i == lengths.length - 1 ? 4097 : 1 + random.nextInt(ManifestLayout.MAX_CHUNK_BYTES);
            }
            Path ordinary = dir.resolve("ordinary.data");
            Path direct = dir.resolve("direct.data");
            ChunkTable ordinaryChunks = write(ordinary, false, lengths, nativeMemory, heap);
            ChunkTable directChunks;
            try (DataFileWriter writer = new DataFileWriter(direct, true)) {
                assertTrue(writer.direct(), "this machine's file systems take O_DIRECT");
                directChunks = append(writer, lengths, nativeMemory, heap);
            }
            assertArrayEquals(Files.readAllBytes(ordinary), Files.readAllBytes(direct));
            assertEquals(ordinaryChunks.size(), directChunks.size());
            for (int c = 0; c < ordinaryChunks.size(); c++) {
                assertEquals(ordinaryChunks.crc(c), directChunks.crc(c));
                assertEquals(ordinaryChunks.dataOffset(c), directChunks.dataOffset(c));
            }
            assertEquals(directChunks.totalBytes(), Files.size(direct));
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(direct)));
        }
    }

    /**
     * A spare that nothing else has open is taken over: renamed to the new file and overwritten in place. One that a
     * reader still has open (as a drain or a partner's rebuild might, under its old name) is never overwritten: it
     * is deleted, and the reader still sees its old bytes; the new file is a fresh one.
     */
    @Test
    void aSpareIsOverwrittenOnlyWhenNothingElseHasItOpen() throws IOException {
        byte[] old = new byte[3 * 4096];
        new Random(3).nextBytes(old);
        byte[] next = new byte[2 * 4096 + 5];
        new Random(4).nextBytes(next);
        Path spare = dir.resolve("spare.data");
        Files.write(spare, old);
        Object inode = Files.getAttribute(spare, "unix:ino");
        Path taken = dir.resolve("v2.data");
        writeWhole(DataFileWriter.overwritingSpare(taken, spare), next);
        assertFalse(Files.exists(spare));
        assertEquals(inode, Files.getAttribute(taken, "unix:ino"), "the spare's inode is reused");
        assertArrayEquals(next, Files.readAllBytes(taken), "cut to what was written");

        Files.write(spare, old);
        Object openInode = Files.getAttribute(spare, "unix:ino");
        try (var reader = java.nio.channels.FileChannel.open(spare)) {
            Path fresh = dir.resolve("v3.data");
            writeWhole(DataFileWriter.overwritingSpare(fresh, spare), next);
            assertFalse(Files.exists(spare));
            assertFalse(openInode.equals(Files.getAttribute(fresh, "unix:ino")), "an open spare is not reused");
            assertArrayEquals(next, Files.readAllBytes(fresh));
            java.nio.ByteBuffer seen = java.nio.ByteBuffer.allocate(old.length);
            reader.read(seen, 0);
            assertArrayEquals(old, seen.array(), "the reader's file is untouched");
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh)));
        }
    }

    private static void writeWhole(DataFileWriter writer, byte[] bytes) throws IOException {
        try (writer) {
            writer.appendChunk(0, 0, MemorySegment.ofArray(bytes));
            writer.force();
        }
    }

    @Test
    void anEmptyDirectFileStaysEmpty() throws IOException {
        Path file = dir.resolve("empty.data");
        Files.write(file, new byte[10_000]); // an older file of the same name is truncated
        try (DataFileWriter writer = new DataFileWriter(file, true)) {
            writer.force();
        }
        assertEquals(0, Files.size(file));
        try (DataFileWriter writer = new DataFileWriter(file, false)) {
            assertFalse(writer.direct());
        }
    }

    private static ChunkTable write(Path file, boolean direct, int[] lengths, MemorySegment nativeMemory,
                                    byte[] heap) throws IOException {
        try (DataFileWriter writer = new DataFileWriter(file, direct)) {
            return append(writer, lengths, nativeMemory, heap);
        }
    }

    private static ChunkTable append(DataFileWriter writer, int[] lengths, MemorySegment nativeMemory, byte[] heap)
            throws IOException {
        long offset = 0;
        for (int i = 0; i < lengths.length; i++) {
            MemorySegment memory = i % 2 == 0 ? nativeMemory : MemorySegment.ofArray(heap);
            writer.append(0, memory, 0, lengths[i]);
            offset += lengths[i];
        }
        writer.force();
        assertEquals(offset, writer.chunks().totalBytes());
        return writer.chunks();
    }
}
