package dev.lazarus.store.level.xor;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;

/**
 * A member's checkpoint files for one version, in a fixed order, read as one logical payload (SCR's "logical file":
 * the XOR scheme pads and splits the concatenation, not each file).
 */
public final class ConcatenatedPayloadSource implements PayloadSource {
    private final PayloadSource[] parts;
    /** starts[i] is where part i begins in the payload; starts[parts.length] is the total size. */
    private final long[] starts;

    /**
     * @param parts the files in payload order; each part's {@link PayloadSource#size()} is read once, here
     * @throws IllegalArgumentException if the total size overflows a {@code long}
     */
    public ConcatenatedPayloadSource(List<? extends PayloadSource> parts) {
        this.parts = parts.toArray(PayloadSource[]::new);
        this.starts = starts(Arrays.stream(this.parts).mapToLong(PayloadSource::size).toArray());
    }

    /**
     * @param sizes the parts' sizes, in payload order
     * @return where each part begins in the concatenation: {@code starts[i]} for part i, {@code starts[sizes.length]}
     *         the total size
     * @throws IllegalArgumentException if the total size overflows a {@code long}
     */
    public static long[] starts(long[] sizes) {
        long[] starts = new long[sizes.length + 1];
        for (int i = 0; i < sizes.length; i++) {
            try {
                starts[i + 1] = Math.addExact(starts[i], sizes[i]);
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("concatenated payload too large: part=" + i, e);
            }
        }
        return starts;
    }

    @Override
    public long size() {
        return starts[parts.length];
    }

    @Override
    public void read(long position, MemorySegment dst, long dstOffset, long length) throws IOException {
        long real = PayloadSources.realLength(size(), position, length);
        long done = 0;
        for (int i = firstPart(starts, position); done < real; i++) {
            long inPart = position + done - starts[i];
            long n = Math.min(real - done, parts[i].size() - inPart);
            parts[i].read(inPart, dst, dstOffset + done, n);
            done += n;
        }
        XorKernel.zero(dst, dstOffset + real, length - real);
    }

    @Override
    public void xorInto(long position, MemorySegment acc, long accOffset, long length, MemorySegment scratch)
            throws IOException {
        long real = PayloadSources.realLength(size(), position, length);
        long done = 0;
        for (int i = firstPart(starts, position); done < real; i++) {
            long inPart = position + done - starts[i];
            long n = Math.min(real - done, parts[i].size() - inPart);
            parts[i].xorInto(inPart, acc, accOffset + done, n, scratch);
            done += n;
        }
    }

    /**
     * @param starts as {@link #starts} returns them
     * @return the last part starting at or before {@code position}; at or past the end, one that a loop bounded by
     *         the total size never reads
     */
    public static int firstPart(long[] starts, long position) {
        int i = Arrays.binarySearch(starts, position);
        // On a start shared by empty parts the search may land on any of them; the loops from it step over empty parts.
        return i >= 0 ? i : -i - 2;
    }

    @Override
    public String toString() {
        return "ConcatenatedPayloadSource[parts=" + parts.length + " size=" + size() + "]";
    }
}
