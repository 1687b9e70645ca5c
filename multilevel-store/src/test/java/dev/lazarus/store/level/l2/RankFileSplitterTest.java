package dev.lazarus.store.level.l2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RankFileSplitterTest {
    private static final long VERSION = 3;

    @TempDir
    Path root;

    /** Slices in shuffled order from four threads, crossing file boundaries and skipping an empty file. */
    @Test
    void slicesInAnyOrderFromSeveralThreadsLandInTheirFiles() throws Exception {
        Random random = new Random(3);
        int[] sizes = {10_000, 0, 77, 123_456, 5, 3};
        byte[][] contents = new byte[sizes.length][];
        List<PayloadFile> files = new ArrayList<>();
        ByteBuffer payload = ByteBuffer.allocate(java.util.Arrays.stream(sizes).sum());
        for (int i = 0; i < sizes.length; i++) {
            contents[i] = new byte[sizes[i]];
            random.nextBytes(contents[i]);
            payload.put(contents[i]);
            files.add(new PayloadFile(i / 2, i % 2 == 0 ? FileKind.MANIFEST : FileKind.DATA, sizes[i],
                    crc(contents[i])));
        }
        CheckpointDirectory l1 = new CheckpointDirectory(root, "job");
        l1.createVersion(VERSION);
        List<long[]> slices = new ArrayList<>();
        for (long at = 0; at < payload.capacity(); at += 999) {
            slices.add(new long[] {at, Math.min(999, payload.capacity() - at)});
        }
        Collections.shuffle(slices, random);
        try (RankFileSplitter splitter = new RankFileSplitter(l1, VERSION, new PayloadTable(files));
             ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int first = t;
                done.add(pool.submit(() -> {
                    for (int s = first; s < slices.size(); s += 4) {
                        long[] slice = slices.get(s);
                        splitter.write(slice[0], payload.duplicate().position((int) slice[0])
                                .limit((int) (slice[0] + slice[1])));
                    }
                    return null;
                }));
            }
            for (Future<?> future : done) {
                future.get();
            }
            assertEquals(List.of(), splitter.verify());
            splitter.publish();
        }
        for (int i = 0; i < sizes.length; i++) {
            assertArrayEquals(contents[i], Files.readAllBytes(ParityFiles.payloadFile(l1, VERSION, files.get(i))),
                    files.get(i).toString());
        }
    }

    @Test
    void aMissingSliceOrAWrongByteFailsVerificationAndNothingIsPublished() throws IOException {
        byte[] content = new byte[4096];
        new Random(9).nextBytes(content);
        CheckpointDirectory l1 = new CheckpointDirectory(root, "job");
        l1.createVersion(VERSION);
        PayloadTable table = new PayloadTable(List.of(new PayloadFile(0, FileKind.MANIFEST, 0, 0),
                new PayloadFile(0, FileKind.DATA, 4096, crc(content))));
        try (RankFileSplitter splitter = new RankFileSplitter(l1, VERSION, table)) {
            splitter.write(0, ByteBuffer.wrap(content, 0, 1000));
            List<String> bad = splitter.verify();
            assertEquals(1, bad.size());
            assertTrue(bad.getFirst().contains("size=1000 expected=4096"), bad.toString());
        }
        content[4000] ^= 1;
        try (RankFileSplitter splitter = new RankFileSplitter(l1, VERSION, table)) {
            splitter.write(2048, ByteBuffer.wrap(content, 2048, 2048));
            splitter.write(0, ByteBuffer.wrap(content, 0, 2048));
            List<String> bad = splitter.verify();
            assertEquals(1, bad.size());
            assertTrue(bad.getFirst().contains("crc32c="), bad.toString());
            IOException e = assertThrows(IOException.class, () -> splitter.write(4000, ByteBuffer.allocate(97)));
            assertTrue(e.getMessage().startsWith("rebuilt payload longer than its file table"), e.getMessage());
        }
        assertFalse(Files.exists(ParityFiles.payloadFile(l1, VERSION, table.files().getLast())));
    }

    private static int crc(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return (int) crc.getValue();
    }
}
