package dev.lazarus.store.level.xor;

import java.lang.foreign.MemorySegment;

/**
 * A payload held in a memory segment: a heap array, native memory, or a file mapped from the RAM disk or NVM, in
 * which case XOR reads it in place without a copy.
 */
public final class SegmentPayloadSource implements PayloadSource {
    private final MemorySegment payload;

    /** @param payload the whole payload; its byte size is the payload size */
    public SegmentPayloadSource(MemorySegment payload) {
        this.payload = payload;
    }

    @Override
    public long size() {
        return payload.byteSize();
    }

    @Override
    public void read(long position, MemorySegment dst, long dstOffset, long length) {
        long real = PayloadSources.realLength(payload.byteSize(), position, length);
        // A position past the end is legal here but not for the segment, even for zero bytes.
        if (real > 0) {
            MemorySegment.copy(payload, position, dst, dstOffset, real);
        }
        XorKernel.zero(dst, dstOffset + real, length - real);
    }

    @Override
    public void xorInto(long position, MemorySegment acc, long accOffset, long length, MemorySegment scratch) {
        long real = PayloadSources.realLength(payload.byteSize(), position, length);
        if (real > 0) {
            XorKernel.xorInto(acc, accOffset, payload, position, real);
        }
    }

    @Override
    public String toString() {
        return "SegmentPayloadSource[size=" + payload.byteSize() + "]";
    }
}
