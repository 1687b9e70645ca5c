package dev.lazarus.store.level.xor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.util.List;
import java.util.Random;

class ColumnRangeTest {

    @Test
    void splitTilesTheChunkInWholeUnitsButTheLast() {
        XorSetLayout layout = XorSetLayout.of(1000, 3000, 2999); // chunk 1504
        assertEquals(1504, layout.chunkSize());
        assertEquals(List.of(new ColumnRange(0, 512), new ColumnRange(512, 1024), new ColumnRange(1024, 1504)),
                ColumnRange.split(layout, 3, 256));
        assertEquals(List.of(new ColumnRange(0, 1504)), ColumnRange.split(layout, 1, 256));
        // Never more workers than units: six 256-byte units for ten workers.
        assertEquals(6, ColumnRange.split(layout, 10, 256).size());
        assertEquals(List.of(new ColumnRange(0, 0)), ColumnRange.split(XorSetLayout.of(0, 0), 4, 256));
    }

    @Test
    void badRangesAndSplitsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ColumnRange(4, 8));
        assertThrows(IllegalArgumentException.class, () -> new ColumnRange(16, 8));
        XorSetLayout layout = XorSetLayout.of(100, 100);
        assertThrows(IllegalArgumentException.class, () -> ColumnRange.split(layout, 0, 64));
        assertThrows(IllegalArgumentException.class, () -> ColumnRange.split(layout, 2, 12));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new XorCodec(64)
                .encodeParity(layout, 0, new PayloadSource[] {null, source(new byte[100])}, new ColumnRange(0, 200),
                        (position, slice) -> { }));
        assertEquals("column range past the chunk: begin=0 end=200 chunkSize=104", e.getMessage());
    }

    /** Workers that each take a range, writing at the positions given, produce what one sequential pass does. */
    @Test
    void rangesTogetherEncodeAndRebuildWhatTheWholeDoes() throws IOException {
        Random random = new Random(11);
        long[] sizes = {5000, 7777, 0, 6400};
        byte[][] payloads = new byte[sizes.length][];
        PayloadSource[] data = new PayloadSource[sizes.length];
        for (int m = 0; m < sizes.length; m++) {
            payloads[m] = new byte[(int) sizes[m]];
            random.nextBytes(payloads[m]);
            data[m] = source(payloads[m]);
        }
        XorSetLayout layout = XorSetLayout.of(sizes);
        XorCodec codec = new XorCodec(64);
        List<ColumnRange> shares = ColumnRange.split(layout, 3, 128);
        assertEquals(3, shares.size());

        PayloadSource[] parity = new PayloadSource[sizes.length];
        for (int h = 0; h < sizes.length; h++) {
            ByteArrayOutputStream whole = new ByteArrayOutputStream();
            codec.encodeParity(layout, h, data, Channels.newChannel(whole));
            byte[] pieced = new byte[(int) layout.chunkSize()];
            for (ColumnRange share : shares) {
                codec.encodeParity(layout, h, data, share, (position, slice) -> slice.get(pieced, (int) position,
                        slice.remaining()));
            }
            assertArrayEquals(whole.toByteArray(), pieced, "parity of " + h);
            parity[h] = source(pieced);
        }
        int lost = 1;
        byte[] rebuilt = new byte[(int) sizes[lost]];
        for (int s = shares.size() - 1; s >= 0; s--) {
            codec.rebuildData(layout, lost, data, parity, shares.get(s), (position, slice) -> slice.get(rebuilt,
                    (int) position, slice.remaining()));
        }
        assertArrayEquals(payloads[lost], rebuilt);
    }

    private static PayloadSource source(byte[] bytes) {
        return new SegmentPayloadSource(java.lang.foreign.MemorySegment.ofArray(bytes));
    }
}
