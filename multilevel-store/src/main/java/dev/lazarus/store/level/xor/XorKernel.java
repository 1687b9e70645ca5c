package dev.lazarus.store.level.xor;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The hot loops of the XOR level: folding one buffer into another and zeroing. They allocate nothing and are the
 * building blocks for a distributed encoder too (a reduce-scatter that XORs slices received from a neighbour).
 */
public final class XorKernel {
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;

    private XorKernel() {
    }

    /**
     * {@code acc[0, length) ^= src[0, length)}.
     *
     * @throws IllegalArgumentException if {@code length} is negative or exceeds either segment
     */
    public static void xorInto(MemorySegment acc, MemorySegment src, long length) {
        xorInto(acc, 0, src, 0, length);
    }

    /**
     * {@code acc[accOffset, accOffset + length) ^= src[srcOffset, srcOffset + length)}, eight bytes at a time. The
     * ranges should not overlap unless they are the same (which zeroes it).
     *
     * @throws IllegalArgumentException if {@code length} or an offset is negative or a range exceeds its segment
     */
    public static void xorInto(MemorySegment acc, long accOffset, MemorySegment src, long srcOffset, long length) {
        checkRange("acc", acc, accOffset, length);
        checkRange("src", src, srcOffset, length);
        long words = length & -Long.BYTES;
        // An int-counted inner loop over at most 1 GiB: C2 unrolls and vectorizes int loops more readily than long.
        for (long base = 0; base < words; base += 1 << 30) {
            int span = (int) Math.min(words - base, 1 << 30);
            long a = accOffset + base;
            long s = srcOffset + base;
            for (int i = 0; i < span; i += Long.BYTES) {
                acc.set(LONG, a + i, acc.get(LONG, a + i) ^ src.get(LONG, s + i));
            }
        }
        for (long i = words; i < length; i++) {
            acc.set(BYTE, accOffset + i, (byte) (acc.get(BYTE, accOffset + i) ^ src.get(BYTE, srcOffset + i)));
        }
    }

    /**
     * {@code dst[offset, offset + length) = 0}, without the slice {@link MemorySegment#fill} would need.
     *
     * @throws IllegalArgumentException if {@code length} or {@code offset} is negative or the range exceeds the segment
     */
    public static void zero(MemorySegment dst, long offset, long length) {
        checkRange("dst", dst, offset, length);
        long words = length & -Long.BYTES;
        for (long i = 0; i < words; i += Long.BYTES) {
            dst.set(LONG, offset + i, 0L);
        }
        for (long i = words; i < length; i++) {
            dst.set(BYTE, offset + i, (byte) 0);
        }
    }

    private static void checkRange(String name, MemorySegment segment, long offset, long length) {
        if (offset < 0 || length < 0 || offset > segment.byteSize() - length) {
            throw new IllegalArgumentException("range outside segment: segment=" + name + " offset=" + offset
                    + " length=" + length + " byteSize=" + segment.byteSize());
        }
    }
}
