package dev.lazarus.store.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.store.CorruptCheckpointException;
import dev.lazarus.store.ElementType;
import dev.lazarus.store.Variable;
import dev.lazarus.store.format.DataFileReader.Access;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

/** Real files on this machine's file systems, which take O_DIRECT: both ways of reading give the written bytes. */
class DataFileReaderTest {
    /** Past two O_DIRECT windows, so chunks straddle a window's end. */
    private static final long TOTAL = 2L * DirectFileInput.WINDOW_BYTES + 4097;

    @TempDir
    Path dir;

    @Test
    void directAndCachedReadsRestoreEveryChunkOfALargeFile() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment source = randomBytes(arena, TOTAL, 5);
            Path file = dir.resolve("rank-0.data");
            RankManifest manifest = write(file, source);
            for (Access access : Access.values()) {
                MemorySegment nativeTarget = arena.allocate(TOTAL);
                MemorySegment heapTarget = MemorySegment.ofArray(new byte[(int) TOTAL]);
                try (DataFileReader reader = new DataFileReader(file, manifest, access)) {
                    assertEquals(access == Access.DIRECT, reader.direct(), "this machine's file systems take O_DIRECT");
                    for (int c = 0; c < manifest.chunks().size(); c++) {
                        reader.readInto(c, c % 3 == 0 ? heapTarget : nativeTarget);
                    }
                }
                for (int c = 0; c < manifest.chunks().size(); c++) {
                    ChunkTable chunks = manifest.chunks();
                    MemorySegment target = c % 3 == 0 ? heapTarget : nativeTarget;
                    long at = chunks.variableOffset(c);
                    assertEquals(-1L, source.asSlice(at, chunks.length(c)).mismatch(
                            target.asSlice(at, chunks.length(c))), access + ": chunk " + c);
                }
            }
        }
    }

    @Test
    void aDirectReadFindsADamagedChunkPastTheFirstWindow() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Path file = dir.resolve("rank-0.data");
            RankManifest manifest = write(file, randomBytes(arena, TOTAL, 6));
            long damaged = DirectFileInput.WINDOW_BYTES + 12_345;
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                raf.seek(damaged);
                int b = raf.read();
                raf.seek(damaged);
                raf.write(b ^ 0x10);
            }
            int chunk = 0;
            while (manifest.chunks().dataOffset(chunk) + manifest.chunks().length(chunk) <= damaged) {
                chunk++;
            }
            MemorySegment target = arena.allocate(TOTAL);
            try (DataFileReader reader = new DataFileReader(file, manifest, Access.DIRECT)) {
                assertTrue(reader.direct());
                for (int c = 0; c < chunk; c++) {
                    reader.readInto(c, target);
                }
                int bad = chunk;
                CorruptCheckpointException e = assertThrows(CorruptCheckpointException.class,
                        () -> reader.readInto(bad, target));
                assertTrue(e.getMessage().contains("chunk " + chunk + " ") && e.getMessage().contains("checksum"),
                        e.getMessage());
            }
        }
    }

    private static MemorySegment randomBytes(Arena arena, long length, long seed) {
        byte[] bytes = new byte[(int) length];
        new Random(seed).nextBytes(bytes);
        return arena.allocate(length).copyFrom(MemorySegment.ofArray(bytes));
    }

    /** Writes {@code source} as one variable in chunks of random lengths, with O_DIRECT as L3 does. */
    private static RankManifest write(Path file, MemorySegment source) throws IOException {
        Random random = new Random(11);
        ChunkTable chunks;
        try (DataFileWriter writer = new DataFileWriter(file, true)) {
            assertTrue(writer.direct(), "this machine's file systems take O_DIRECT");
            long offset = 0;
            while (offset < source.byteSize()) {
                int length = (int) Math.min(source.byteSize() - offset,
                        1 + random.nextInt(ManifestLayout.MAX_CHUNK_BYTES));
                writer.append(0, source, offset, length);
                offset += length;
            }
            writer.force();
            chunks = writer.chunks();
        }
        return new RankManifest("job", 0, 1, 1, -1, 512,
                List.of(new Variable("v", ElementType.BYTE, new long[] {source.byteSize()})), chunks,
                PageFilter.ALL_PAGES);
    }
}
