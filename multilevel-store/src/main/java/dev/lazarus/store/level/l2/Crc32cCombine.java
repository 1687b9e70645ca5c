package dev.lazarus.store.level.l2;

/**
 * Joins CRC32Cs of adjacent pieces: given crc(A), crc(B) and B's length, it gives crc(A followed by B) without
 * reading either again. Parallel rebuild workers checksum the slices they write while the bytes are still in cache,
 * and the files' checksums are assembled from those afterwards.
 *
 * <p>A CRC is a remainder of polynomial division over GF(2); appending {@code n} bytes multiplies A's remainder by
 * x^(8n) modulo the generator before B's is added (zlib's crc32_combine does this for CRC-32). x^(8n) is built from
 * the precomputed powers x^(2^k). The generator here is Castagnoli's (reflected 0x82F63B78), as in
 * {@link java.util.zip.CRC32C}.
 */
public final class Crc32cCombine {
    private static final int POLY = 0x82F63B78;
    /** X2N[k] = x^(2^k) mod the generator, in the reflected bit order. */
    private static final int[] X2N = new int[32];

    static {
        int p = 1 << 30; // x^1
        X2N[0] = p;
        for (int k = 1; k < X2N.length; k++) {
            p = multiply(p, p);
            X2N[k] = p;
        }
    }

    private Crc32cCombine() {
    }

    /**
     * @param first       CRC32C of the first piece
     * @param second      CRC32C of the piece that follows it
     * @param secondBytes length of the second piece, {@code >= 0}
     * @return CRC32C of the two pieces one after the other
     */
    public static int combine(int first, int second, long secondBytes) {
        if (secondBytes < 0) {
            throw new IllegalArgumentException("negative length: " + secondBytes);
        }
        return multiply(xToThe8n(secondBytes), first) ^ second;
    }

    /** @return a times b modulo the generator (both reflected) */
    private static int multiply(int a, int b) {
        int m = 1 << 31;
        int product = 0;
        while (true) {
            if ((a & m) != 0) {
                product ^= b;
                if ((a & (m - 1)) == 0) {
                    return product;
                }
            }
            m >>>= 1;
            b = (b & 1) != 0 ? (b >>> 1) ^ POLY : b >>> 1;
        }
    }

    /** @return x^(8n) modulo the generator */
    private static int xToThe8n(long n) {
        int p = 1 << 31; // x^0
        int k = 3;
        while (n != 0) {
            if ((n & 1) != 0) {
                p = multiply(X2N[k & 31], p);
            }
            n >>>= 1;
            k++;
        }
        return p;
    }
}
