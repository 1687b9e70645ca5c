package dev.lazarus.store.dirty;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * XXH3-128 (xxHash 0.8, default secret, seed 0) of inputs longer than 240 bytes whose length is a multiple of 8, given
 * as little-endian words: the long-input path of the specification, which every checkpoint block (256 bytes to 64 KiB)
 * takes. The values are those of every XXH3-128 implementation (the tests compare with zero-allocation-hashing's).
 *
 * <p>Why not the library alone: its generic entry point spends a good part of a 512-byte block's time in dispatch
 * and bounds handling, which kept block hashing under the 4 GB/s per core the checkpoint needs; hash4j, the other
 * candidate, returns a new object per hash on this hot path. Here the input is a {@code long[]} (the caller copies a
 * block into it from any segment, heap or native, in one bulk copy), the eight accumulators live in locals and the
 * secret is pre-read into words, so a hash allocates nothing and its loop is loads, multiplies and adds.
 */
final class Xxh3Long128 {
    /** Shortest input in bytes: shorter ones take other paths of the specification. */
    static final int MIN_LENGTH = 248;

    /** How the caller reads a block into words: little-endian, whatever the platform's order. */
    static final ValueLayout.OfLong LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final long PRIME32_1 = 0x9E3779B1L;
    private static final long PRIME32_2 = 0x85EBCA77L;
    private static final long PRIME32_3 = 0xC2B2AE3DL;
    private static final long PRIME64_1 = 0x9E3779B185EBCA87L;
    private static final long PRIME64_2 = 0xC2B2AE3D27D4EB4FL;
    private static final long PRIME64_3 = 0x165667B19E3779F9L;
    private static final long PRIME64_4 = 0x85EBCA77C2B2AE63L;
    private static final long PRIME64_5 = 0x27D4EB2F165667C5L;
    private static final long AVALANCHE = 0x165667919E3779F9L;
    private static final int STRIPE = 64;
    /** Stripes per block: (secret size - stripe) / 8 with the 192-byte default secret. */
    private static final int STRIPES_PER_BLOCK = 16;
    private static final int BLOCK = STRIPE * STRIPES_PER_BLOCK;

    /** The specification's default 192-byte secret (kSecret). */
    private static final byte[] SECRET = bytes(
            "b8fe6c3923a44bbe7c01812cf721ad1cded46de9839097db7240a4a4b7b3671f"
            + "cb79e64eccc0e578825ad07dccff7221b8084674f743248ee03590e6813a264c"
            + "3c2852bb91c300cb88d0658b1b532ea371644897a20df94e3819ef46a9deacd8"
            + "a8fa763fe39c343ff9dcbbc7c70b4f1d8a51e04bcdb45931c89f7ec9d9787364"
            + "eac5ac8334d3ebc3c581a0fffa1363eb170ddd51b7f0da49d316552629d4689e"
            + "2b16be587d47a1fc8ff8b8d17ad031ce45cb3a8f95160428afd7fbcabb4b407e");
    /** The secret as 24 little-endian words: stripe i of a block uses words i..i+7, the scramble words 16..23. */
    private static final long[] WORDS = words(0, 24, 8);
    /** The secret read at byte 121 (192 - 64 - 7): the last stripe's key. */
    private static final long[] LAST = words(121, 8, 8);
    /** The secret read at byte 11: the low half's merge key. */
    private static final long[] MERGE_LOW = words(11, 8, 8);
    /** The secret read at byte 117 (192 - 64 - 11): the high half's merge key. */
    private static final long[] MERGE_HIGH = words(117, 8, 8);

    private Xxh3Long128() {
    }

    /** @return whether an input of this many bytes can be hashed here */
    static boolean accepts(long length) {
        return length >= MIN_LENGTH && length % Long.BYTES == 0;
    }

    /**
     * Hashes the bytes held, little-endian, in {@code words[from .. from + length / 8)}.
     *
     * @param length the input's length in bytes, a multiple of 8 of at least {@value #MIN_LENGTH}
     * @param out    receives the low 64 bits at [0] and the high 64 bits at [1]
     * @throws IllegalArgumentException if the length is not {@link #accepts accepted}
     */
    static void hash(long[] words, int from, int length, long[] out) {
        if (!accepts(length)) {
            throw new IllegalArgumentException("length=" + length + " must be a multiple of 8 of at least "
                    + MIN_LENGTH);
        }
        long a0 = PRIME32_3;
        long a1 = PRIME64_1;
        long a2 = PRIME64_2;
        long a3 = PRIME64_3;
        long a4 = PRIME64_4;
        long a5 = PRIME32_2;
        long a6 = PRIME64_5;
        long a7 = PRIME32_1;
        int blocks = (length - 1) / BLOCK;
        int lastStripes = ((length - 1) - blocks * BLOCK) / STRIPE;
        long[] w = WORDS;
        long[] in = words;
        int at = from;
        for (int block = 0; block <= blocks; block++) {
            int stripes = block < blocks ? STRIPES_PER_BLOCK : lastStripes;
            // k is the loop's own counter so that the JIT can drop the secret's and the input's bounds checks.
            for (int k = 0; k < stripes; k++, at += STRIPE / Long.BYTES) {
                long d0 = in[at];
                long d1 = in[at + 1];
                long d2 = in[at + 2];
                long d3 = in[at + 3];
                long d4 = in[at + 4];
                long d5 = in[at + 5];
                long d6 = in[at + 6];
                long d7 = in[at + 7];
                // Each lane adds its key's two 32-bit halves multiplied, and its neighbour's raw input.
                a0 += d1 + halves(d0 ^ w[k]);
                a1 += d0 + halves(d1 ^ w[k + 1]);
                a2 += d3 + halves(d2 ^ w[k + 2]);
                a3 += d2 + halves(d3 ^ w[k + 3]);
                a4 += d5 + halves(d4 ^ w[k + 4]);
                a5 += d4 + halves(d5 ^ w[k + 5]);
                a6 += d7 + halves(d6 ^ w[k + 6]);
                a7 += d6 + halves(d7 ^ w[k + 7]);
            }
            if (block < blocks) {
                a0 = scramble(a0, w[16]);
                a1 = scramble(a1, w[17]);
                a2 = scramble(a2, w[18]);
                a3 = scramble(a3, w[19]);
                a4 = scramble(a4, w[20]);
                a5 = scramble(a5, w[21]);
                a6 = scramble(a6, w[22]);
                a7 = scramble(a7, w[23]);
            }
        }
        // The last stripe always ends at the input's end, overlapping the previous one. It repeats the loop body with
        // its own key: the accumulators are locals, which no helper method could update.
        at = from + (length - STRIPE) / Long.BYTES;
        long d0 = in[at];
        long d1 = in[at + 1];
        long d2 = in[at + 2];
        long d3 = in[at + 3];
        long d4 = in[at + 4];
        long d5 = in[at + 5];
        long d6 = in[at + 6];
        long d7 = in[at + 7];
        a0 += d1 + halves(d0 ^ LAST[0]);
        a1 += d0 + halves(d1 ^ LAST[1]);
        a2 += d3 + halves(d2 ^ LAST[2]);
        a3 += d2 + halves(d3 ^ LAST[3]);
        a4 += d5 + halves(d4 ^ LAST[4]);
        a5 += d4 + halves(d5 ^ LAST[5]);
        a6 += d7 + halves(d6 ^ LAST[6]);
        a7 += d6 + halves(d7 ^ LAST[7]);
        out[0] = merge(a0, a1, a2, a3, a4, a5, a6, a7, MERGE_LOW, length * PRIME64_1);
        out[1] = merge(a0, a1, a2, a3, a4, a5, a6, a7, MERGE_HIGH, ~((long) length * PRIME64_2));
    }

    private static long halves(long key) {
        return (key & 0xFFFF_FFFFL) * (key >>> 32);
    }

    private static long scramble(long acc, long key) {
        return ((acc ^ (acc >>> 47)) ^ key) * PRIME32_1;
    }

    private static long merge(long a0, long a1, long a2, long a3, long a4, long a5, long a6, long a7, long[] key,
                              long start) {
        long h = start + fold(a0 ^ key[0], a1 ^ key[1]) + fold(a2 ^ key[2], a3 ^ key[3])
                + fold(a4 ^ key[4], a5 ^ key[5]) + fold(a6 ^ key[6], a7 ^ key[7]);
        h ^= h >>> 37;
        h *= AVALANCHE;
        return h ^ (h >>> 32);
    }

    /** The 128-bit product of two words, its halves XORed. */
    private static long fold(long a, long b) {
        return a * b ^ Math.unsignedMultiplyHigh(a, b);
    }

    private static long[] words(int offset, int count, int step) {
        MemorySegment secret = MemorySegment.ofArray(SECRET);
        long[] words = new long[count];
        for (int i = 0; i < count; i++) {
            words[i] = secret.get(LE, offset + (long) i * step);
        }
        return words;
    }

    private static byte[] bytes(String hex) {
        return java.util.HexFormat.of().parseHex(hex);
    }
}
