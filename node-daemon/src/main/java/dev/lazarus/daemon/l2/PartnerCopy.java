package dev.lazarus.daemon.l2;

import dev.lazarus.store.level.xor.ColumnRange;
import dev.lazarus.store.level.xor.PayloadSource;
import dev.lazarus.store.level.xor.SliceSink;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * Copies a range of a member's payload or partner copy to a sink slice by slice, through one native buffer: the
 * transfer of {@link dev.lazarus.store.level.l2.L2Scheme#PARTNER}, where encoding stores the left neighbour's payload
 * and rebuilding fetches the copy back. Used by one thread at a time; allocates nothing after construction.
 */
final class PartnerCopy {
    /** Bytes per step, as the XOR codec's slices. */
    private static final int SLICE_BYTES = 1 << 20;

    private final MemorySegment buffer = Arena.ofAuto().allocate(SLICE_BYTES, 64);
    private final ByteBuffer view = buffer.asByteBuffer();

    /**
     * Copies bytes {@code [range.begin(), range.end())} of {@code from}, clipped to its size, to {@code to} at the
     * same positions, in increasing order.
     */
    void copy(PayloadSource from, ColumnRange range, SliceSink to) throws IOException {
        long end = Math.min(range.end(), from.size());
        for (long at = range.begin(); at < end; at += SLICE_BYTES) {
            int length = (int) Math.min(SLICE_BYTES, end - at);
            from.read(at, buffer, 0, length);
            to.write(at, view.clear().limit(length));
        }
    }
}
