package dev.lazarus.npb.common;

/**
 * The NPB pseudo-random generator: the linear congruential sequence {@code x(k+1) = a * x(k) mod 2^46}, computed
 * exactly in double precision by splitting operands into 23-bit halves (NPB's {@code randlc} and {@code vranlc}).
 * Every kernel's input depends on reproducing this sequence bit for bit.
 */
public final class NpbRandom {
    private static final double R23 = 0x1.0p-23;
    private static final double R46 = R23 * R23;
    private static final double T23 = 0x1.0p23;
    private static final double T46 = T23 * T23;

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

    /** {@code (a * x) mod 2^46}, exact for operands below 2^46. */
    public static double multiplyMod46(double x, double a) {
        double t1 = R23 * a;
        double a1 = (long) t1;
        double a2 = a - T23 * a1;
        t1 = R23 * x;
        double x1 = (long) t1;
        double x2 = x - T23 * x1;
        t1 = a1 * x2 + a2 * x1;
        double t2 = (long) (R23 * t1);
        double z = t1 - T23 * t2;
        double t3 = T23 * z + a2 * x2;
        double t4 = (long) (R46 * t3);
        return t3 - T46 * t4;
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
