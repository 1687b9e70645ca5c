package dev.lazarus.store.level.xor;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Random;

import static dev.lazarus.store.level.xor.XorSetLayoutTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

class XorKernelTest {

    @Test
    void xorIntoMatchesBytewiseXorAtOddOffsetsAndLengths() {
        Random random = new Random(7);
        for (int length : new int[] {0, 1, 7, 8, 9, 63, 64, 1000, 4099}) {
            for (int accOffset : new int[] {0, 3}) {
                byte[] acc = new byte[length + 11];
                byte[] src = new byte[length + 5];
                random.nextBytes(acc);
                random.nextBytes(src);
                byte[] expected = acc.clone();
                for (int i = 0; i < length; i++) {
                    expected[accOffset + i] ^= src[5 + i];
                }
                XorKernel.xorInto(MemorySegment.ofArray(acc), accOffset, MemorySegment.ofArray(src), 5, length);
                assertArrayEquals(expected, acc, "length=" + length + " accOffset=" + accOffset);
            }
        }
    }

    @Test
    void xorIntoWorksOnNativeSegments() {
        try (Arena arena = Arena.ofConfined()) {
            byte[] a = new byte[333];
            byte[] b = new byte[333];
            new Random(8).nextBytes(a);
            new Random(9).nextBytes(b);
            MemorySegment acc = arena.allocate(333).copyFrom(MemorySegment.ofArray(a));
            MemorySegment src = arena.allocate(333).copyFrom(MemorySegment.ofArray(b));
            XorKernel.xorInto(acc, src, 333);
            for (int i = 0; i < 333; i++) {
                a[i] ^= b[i];
            }
            assertArrayEquals(a, acc.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    void zeroClearsExactlyTheRange() {
        byte[] bytes = new byte[30];
        java.util.Arrays.fill(bytes, (byte) -1);
        XorKernel.zero(MemorySegment.ofArray(bytes), 3, 21);
        byte[] expected = bytes.clone();
        java.util.Arrays.fill(expected, (byte) -1);
        java.util.Arrays.fill(expected, 3, 24, (byte) 0);
        assertArrayEquals(expected, bytes);
    }

    @Test
    void rangesOutsideTheSegmentsAreRejected() {
        MemorySegment small = MemorySegment.ofArray(new byte[16]);
        MemorySegment large = MemorySegment.ofArray(new byte[64]);
        assertMessage("range outside segment: segment=acc offset=0 length=17 byteSize=16",
                () -> XorKernel.xorInto(small, large, 17));
        assertMessage("range outside segment: segment=src offset=60 length=8 byteSize=64",
                () -> XorKernel.xorInto(large, 0, large, 60, 8));
        assertMessage("range outside segment: segment=acc offset=-1 length=4 byteSize=64",
                () -> XorKernel.xorInto(large, -1, large, 0, 4));
        assertMessage("range outside segment: segment=dst offset=0 length=-2 byteSize=16",
                () -> XorKernel.zero(small, 0, -2));
    }
}
