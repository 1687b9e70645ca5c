package dev.lazarus.npb.common;

/**
 * The NPB pseudo-random generator: the linear congruential sequence {@code x(k+1) = a * x(k) mod 2^46}, computed
 * exactly in double precision by splitting operands into 23-bit halves (NPB's {@code randlc} and {@code vranlc}).
 * Every kernel's input depends on reproducing this sequence bit for bit.
 */
public final class NpbRandom {
    private static final double R46 = 0x1.0p-46;
    private static final long MASK46 = (1L << 46) - 1;

    /** The multiplier most kernels use, 5^13. */
    public static final double A = 1220703125.0;

    private double seed;

    public NpbRandom(double seed) {
        this.seed = seed;
    }

    public double seed() {
        return seed;
    }

    public void seed(double value) {
        this.seed = value;
    }

    /** Advances the seed by one step with multiplier {@code a} and returns the new value scaled to (0, 1). */
    public double randlc(double a) {
        seed = multiplyMod46(seed, a);
        return R46 * seed;
    }

    /** Fills {@code y[offset .. offset+n)} with the next {@code n} values of the sequence. */
    public void vranlc(int n, double a, double[] y, int offset) {
        double x = seed;
        for (int i = 0; i < n; i++) {
            x = multiplyMod46(x, a);
            y[offset + i] = R46 * x;
        }
        seed = x;
    }

    /**
     * {@code (a * x) mod 2^46}, exact for operands below 2^46 (whole numbers, as every state of the generator is).
     *
     * <p>NPB's {@code randlc} splits the operands into 23-bit halves so the products stay exact in doubles. Java's
     * {@code long} product wraps modulo 2^64, and 2^46 divides 2^64, so its low 46 bits are already the answer: one
     * multiply instead of ten floating-point operations and four conversions (EP spends most of its time here).
     */
    public static double multiplyMod46(double x, double a) {
        return (double) multiplyMod46((long) x, (long) a);
    }

    /** {@code (a * x) mod 2^46} on whole numbers below 2^46 held as {@code long}s (see the {@code double} form). */
    public static long multiplyMod46(long x, long a) {
        return (x * a) & MASK46;
    }

    /** {@code a^n mod 2^46} by repeated squaring, for jumping ahead in the sequence ({@code n >= 0}). */
    public static double power(double a, long n) {
        double result = 1.0;
        double base = a;
        long e = n;
        while (e > 0) {
            if ((e & 1) != 0) {
                result = multiplyMod46(result, base);
            }
            base = multiplyMod46(base, base);
            e >>>= 1;
        }
        return result;
    }
}
