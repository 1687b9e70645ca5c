package dev.lazarus.npb.is;

import java.util.Locale;

/**
 * An order-independent fingerprint of a multiset of keys: how many there are and the sum of a 64-bit mix of each.
 * IS's acceptance check compares the fingerprint of the keys it sorted with that of the benchmark's key set, so that
 * the verdict depends on every key (NPB's own checks see only the ranks of five test keys and the sort order).
 *
 * <p>The mix is MurmurHash3's 64-bit finalizer, a bijection: two different keys never mix to the same value, so
 * replacing one key by another always changes the sum, and several changes cancel out only with probability about
 * {@code 2^-64}. The sum is kept as two sums of the mix's 32-bit halves, each below {@code 2^32} per key, so that
 * neither overflows for fewer than {@code 2^31} keys and an all-reduce of the parts over the ranks (by MPI's
 * {@code long} sum, whose overflow is undefined in C) is exact.
 */
final class KeySetFingerprint implements IsKernel.KeyStore {
    /** Entries of {@link #addTo}: key count, sum of the mixes' high halves, sum of their low halves. */
    static final int LENGTH = 3;
    private static final long LOW_HALF = 0xFFFF_FFFFL;

    private long count;
    private long highSum;
    private long lowSum;

    /** The fingerprint of {@code keys[0 .. length)}. */
    static KeySetFingerprint of(int[] keys, int length) {
        KeySetFingerprint fingerprint = new KeySetFingerprint();
        for (int i = 0; i < length; i++) {
            fingerprint.add(keys[i]);
        }
        return fingerprint;
    }

    /** Adds one key. */
    void add(int key) {
        long mixed = mix(key);
        count++;
        highSum += mixed >>> 32;
        lowSum += mixed & LOW_HALF;
    }

    /** Adds {@code key} wherever {@link IsKernel#createSeq} would store it. */
    @Override
    public void store(int index, int key) {
        add(key);
    }

    /** Writes count, high and low sums into {@code target[offset .. offset + LENGTH)}, ready for an all-reduce. */
    void addTo(long[] target, int offset) {
        target[offset] = count;
        target[offset + 1] = highSum;
        target[offset + 2] = lowSum;
    }

    /** The all-reduced parts at {@code parts[offset ..]} as one line: the count and a 64-bit digest of the sums. */
    static String describe(long[] parts, int offset) {
        return String.format(Locale.ROOT, "%d keys, %016x", parts[offset],
                mix(parts[offset + 1]) ^ parts[offset + 2]);
    }

    /** MurmurHash3's {@code fmix64}: a bijection of 64-bit values in which every input bit affects every output bit. */
    static long mix(long value) {
        long h = value;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
