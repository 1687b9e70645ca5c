package dev.lazarus.store.level.xor;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * The {@link ByteBuffer} views of the last two segments a channel read into. The codec alternates between two slice
 * buffers, so remembering two makes every read after the first allocation-free.
 */
public final class ByteBufferViews {
    private MemorySegment recentSegment;
    private ByteBuffer recentView;
    private MemorySegment olderSegment;
    private ByteBuffer olderView;

    /**
     * @return a view of the whole of {@code dst}, position and limit for the caller to set
     * @throws IllegalArgumentException if the segment is too large for a ByteBuffer
     */
    public ByteBuffer viewOf(MemorySegment dst) {
        if (dst == recentSegment) {
            return recentView;
        }
        if (dst != olderSegment) {
            if (dst.byteSize() > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("destination too large for a ByteBuffer: byteSize="
                        + dst.byteSize());
            }
            olderSegment = dst;
            olderView = dst.asByteBuffer();
        }
        MemorySegment segment = olderSegment;
        ByteBuffer view = olderView;
        olderSegment = recentSegment;
        olderView = recentView;
        recentSegment = segment;
        recentView = view;
        return view;
    }
}
