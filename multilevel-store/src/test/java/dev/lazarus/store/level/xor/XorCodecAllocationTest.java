package dev.lazarus.store.level.xor;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The codec's slice loop allocates nothing once warm: checked by bytes allocated on this thread, not by time. */
class XorCodecAllocationTest {

    /** Counts and drops what is written. */
    private static final class DiscardChannel implements WritableByteChannel {
        long written;

        @Override
        public int write(ByteBuffer src) {
            int n = src.remaining();
            src.position(src.limit());
            written += n;
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }

    @Test
    void encodingAndRebuildingAllocateNothingPerSlice() throws IOException {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long[] sizes = {4 << 20, 3 << 20, 0, (4 << 20) - 5, 1 << 20, 4 << 20, 77, 2 << 20};
        int n = sizes.length;
        XorSetLayout layout = XorSetLayout.of(sizes);
        try (Arena arena = Arena.ofConfined()) {
            PayloadSource[] data = new PayloadSource[n];
            PayloadSource[] parity = new PayloadSource[n];
            for (int m = 0; m < n; m++) {
                data[m] = new SegmentPayloadSource(arena.allocate(sizes[m]).fill((byte) m));
                parity[m] = new SegmentPayloadSource(arena.allocate(layout.chunkSize()));
            }
            // 64 KiB slices: about 100 slices per pass, so even 16 bytes per slice would show.
            XorCodec codec = new XorCodec(64 << 10);
            DiscardChannel sink = new DiscardChannel();
            long[] allocated = new long[3];
            for (int round = 0; round < allocated.length; round++) {
                long before = threads.getCurrentThreadAllocatedBytes();
                for (int m = 0; m < n; m++) {
                    codec.encodeParity(layout, m, data, sink);
                }
                codec.rebuild(layout, 5, data, parity, sink, sink);
                allocated[round] = threads.getCurrentThreadAllocatedBytes() - before;
            }
            // The first round may link call sites and compile; later rounds are the steady state.
            assertTrue(allocated[2] < 1024, "bytes allocated per round: " + java.util.Arrays.toString(allocated));
            assertTrue(sink.written > 0);
        }
    }
}
