package dev.lazarus.store.level.xor;

import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * One member's payload (or parity chunk) as random-access bytes, zero past its end, which is how the XOR scheme
 * pads every payload to n-1 whole chunks without writing the padding anywhere.
 *
 * <p>Sources are used by one thread at a time. Reads pass (segment, offset, length) so that they allocate nothing.
 */
public interface PayloadSource {

    /** @return the number of real bytes; reads at or past this position return zeros */
    long size();

    /**
     * Copies {@code length} bytes starting at {@code position} of the payload into {@code dst[dstOffset, ...)},
     * with zeros for positions at or past {@link #size()}.
     *
     * @param position a position in the payload, {@code >= 0}; it may be past the end
     * @throws IOException if the underlying storage fails or holds fewer than {@link #size()} bytes
     */
    void read(long position, MemorySegment dst, long dstOffset, long length) throws IOException;

    /**
     * {@code acc[accOffset, accOffset + length) ^= payload[position, position + length)}. Sources that hold their
     * bytes in memory override this to XOR straight from it, which saves a copy.
     *
     * @param scratch a buffer of at least {@code length} bytes this call may overwrite
     * @throws IOException as {@link #read}
     */
    default void xorInto(long position, MemorySegment acc, long accOffset, long length, MemorySegment scratch)
            throws IOException {
        // Bytes past the end are zeros, and XOR with zero changes nothing.
        long real = PayloadSources.realLength(size(), position, length);
        if (real > 0) {
            read(position, scratch, 0, real);
            XorKernel.xorInto(acc, accOffset, scratch, 0, real);
        }
    }
}
