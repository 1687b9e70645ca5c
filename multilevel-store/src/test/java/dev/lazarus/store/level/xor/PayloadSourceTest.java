package dev.lazarus.store.level.xor;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static dev.lazarus.store.level.xor.XorSetLayoutTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Reads, zero fill past the end, and XOR through each source, against the bytes they stand for. */
class PayloadSourceTest {
    @TempDir
    Path dir;

    private static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    /** Reads [position, position + length) into the middle of a buffer of 0x77 bytes, and returns that middle. */
    private static byte[] read(PayloadSource source, long position, int length) throws IOException {
        byte[] buffer = new byte[length + 6];
        Arrays.fill(buffer, (byte) 0x77);
        source.read(position, MemorySegment.ofArray(buffer), 3, length);
        assertEquals(0x77, buffer[2]);
        assertEquals(0x77, buffer[length + 3]);
        return Arrays.copyOfRange(buffer, 3, length + 3);
    }

    /** The payload's bytes over [position, position + length), zero past its end. */
    private static byte[] expected(byte[] payload, int position, int length) {
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            out[i] = position + i < payload.length ? payload[position + i] : 0;
        }
        return out;
    }

    private void assertReadsLike(byte[] payload, PayloadSource source) throws IOException {
        assertEquals(payload.length, source.size());
        int[][] ranges = {{0, payload.length}, {1, 9}, {payload.length - 5, 12}, {payload.length + 3, 8}, {0, 0}};
        for (int[] r : ranges) {
            assertArrayEquals(expected(payload, r[0], r[1]), read(source, r[0], r[1]), "range=" + Arrays.toString(r));
            byte[] acc = random(r[1] + 2, 99);
            byte[] xored = acc.clone();
            byte[] bytes = expected(payload, r[0], r[1]);
            for (int i = 0; i < r[1]; i++) {
                xored[1 + i] ^= bytes[i];
            }
            source.xorInto(r[0], MemorySegment.ofArray(acc), 1, r[1], MemorySegment.ofArray(new byte[r[1]]));
            assertArrayEquals(xored, acc, "xor range=" + Arrays.toString(r));
        }
    }

    @Test
    void segmentSourceReadsAndXorsInPlace() throws IOException {
        byte[] payload = random(101, 1);
        assertReadsLike(payload, new SegmentPayloadSource(MemorySegment.ofArray(payload)));
    }

    @Test
    void fileChannelSourceReadsARegionOfTheFile() throws IOException {
        byte[] payload = random(203, 2);
        Path file = dir.resolve("parity.xor");
        byte[] withHeader = new byte[50 + payload.length + 7];
        System.arraycopy(payload, 0, withHeader, 50, payload.length);
        Files.write(file, withHeader);
        try (FileChannel channel = FileChannel.open(file)) {
            assertReadsLike(payload, new FileChannelPayloadSource(channel, 50, payload.length));
            assertEquals(withHeader.length, new FileChannelPayloadSource(channel).size());
            assertEquals(0, channel.position());
        }
    }

    @Test
    void fileChannelSourceFailsOnATruncatedFile() throws IOException {
        Path file = dir.resolve("short.ckpt");
        Files.write(file, new byte[40]);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            PayloadSource source = new FileChannelPayloadSource(channel, 8, 64);
            EOFException e = assertThrows(EOFException.class, () -> read(source, 0, 64));
            assertEquals("file ends inside payload: fileOffset=8 size=64 endsAt=32", e.getMessage());
        }
        assertMessage("negative file region: fileOffset=-1 size=5", () -> new FileChannelPayloadSource(null, -1, 5));
    }

    @Test
    void concatenationReadsAcrossPartsIncludingEmptyOnes() throws IOException {
        byte[] a = random(13, 3);
        byte[] c = random(30, 4);
        byte[] e = random(1, 5);
        Path file = dir.resolve("c.ckpt");
        Files.write(file, c);
        try (FileChannel channel = FileChannel.open(file)) {
            PayloadSource source = new ConcatenatedPayloadSource(List.of(
                    new SegmentPayloadSource(MemorySegment.ofArray(new byte[0])),
                    new SegmentPayloadSource(MemorySegment.ofArray(a)),
                    new SegmentPayloadSource(MemorySegment.ofArray(new byte[0])),
                    new FileChannelPayloadSource(channel),
                    new SegmentPayloadSource(MemorySegment.ofArray(e))));
            byte[] whole = new byte[44];
            System.arraycopy(a, 0, whole, 0, 13);
            System.arraycopy(c, 0, whole, 13, 30);
            whole[43] = e[0];
            assertReadsLike(whole, source);
            for (int position = 0; position <= 44; position++) {
                assertArrayEquals(expected(whole, position, 5), read(source, position, 5), "position=" + position);
            }
        }
        assertEquals(0, new ConcatenatedPayloadSource(List.of()).size());
        assertArrayEquals(new byte[4], read(new ConcatenatedPayloadSource(List.of()), 0, 4));
    }

    @Test
    void negativeRangesAreRejected() {
        PayloadSource source = new SegmentPayloadSource(MemorySegment.ofArray(new byte[8]));
        MemorySegment dst = MemorySegment.ofArray(new byte[8]);
        assertMessage("negative read range: position=-1 length=4", () -> source.read(-1, dst, 0, 4));
        assertMessage("negative read range: position=0 length=-4", () -> source.read(0, dst, 0, -4));
        assertEquals(0, dst.get(ValueLayout.JAVA_BYTE, 0));
    }
}
