package dev.lazarus.npb.ep;

import dev.lazarus.easycrash.DoubleArray;
import dev.lazarus.npb.common.NpbRandom;

/**
 * EP's batch loops, on the data objects they work on: {@link EpKernel} calls them, and so do the JMH benchmarks of
 * the loops, which therefore time the kernel's own code on either implementation of the objects (persistent heap or
 * plain arrays). Both perform NPB's floating-point operations in NPB's order.
 */
final class EpOps {
    /** {@code 2^-46}: scales a generator state to (0, 1), as NPB's {@code vranlc}. */
    private static final double R46 = 0x1.0p-46;

    private EpOps() {
    }

    /**
     * Fills {@code xs[0 .. count)} with the next {@code count} uniforms in (0, 1) of NPB's generator with multiplier
     * {@code a}, starting after state {@code seed} ({@code vranlc}).
     */
    static void generateUniforms(DoubleArray xs, double seed, double a, int count) {
        // One stream x(k+1) = a x(k) mod 2^46 is a chain of dependent multiplies and so yields one number per
        // multiply latency. Four interleaved streams, each stepping by a^4, keep four chains in flight; the integer
        // products are exact, so every number has the same bits as the single stream's (EP spent 4.3 ns per number
        // on the chain, which with conversions to and from double it also had to wait for).
        long a1 = (long) a;
        long a4 = NpbRandom.multiplyMod46(NpbRandom.multiplyMod46(a1, a1), NpbRandom.multiplyMod46(a1, a1));
        long s0 = NpbRandom.multiplyMod46((long) seed, a1);
        long s1 = NpbRandom.multiplyMod46(s0, a1);
        long s2 = NpbRandom.multiplyMod46(s1, a1);
        long s3 = NpbRandom.multiplyMod46(s2, a1);
        int i = 0;
        for (; i + 3 < count; i += 4) {
            xs.set(i, R46 * s0);
            xs.set(i + 1, R46 * s1);
            xs.set(i + 2, R46 * s2);
            xs.set(i + 3, R46 * s3);
            s0 = NpbRandom.multiplyMod46(s0, a4);
            s1 = NpbRandom.multiplyMod46(s1, a4);
            s2 = NpbRandom.multiplyMod46(s2, a4);
            s3 = NpbRandom.multiplyMod46(s3, a4);
        }
        for (long state = s0; i < count; i++) {
            xs.set(i, R46 * state);
            state = NpbRandom.multiplyMod46(state, a1);
        }
    }

    /**
     * Turns each pair {@code xs[2i], xs[2i+1]} of {@code xs[0 .. count)} into a pair of Gaussian deviates (Marsaglia
     * polar method, rejecting pairs outside the unit disc) and tallies them: the tallies slot at {@code previous}
     * (four sums at {@link EpKernel#SX} .. {@link EpKernel#SY_SIGNED}, then the {@link EpKernel#NQ} annulus counts
     * from {@link EpKernel#COUNTS}) plus this batch's pairs is stored in the slot at {@code next}. The slot at
     * {@code previous} is only read, so running a batch again gives the same slot (see {@link EpKernel}). The sums and
     * counts are accumulated in registers and in {@code annuli}, scratch of {@link EpKernel#NQ} doubles, pair by pair
     * in NPB's order.
     */
    static void tallyGaussianPairs(DoubleArray xs, DoubleArray tallies, int previous, int next, double[] annuli,
                                   int count) {
        double sumX = tallies.get(previous + EpKernel.SX);
        double sumY = tallies.get(previous + EpKernel.SY);
        double signedX = tallies.get(previous + EpKernel.SX_SIGNED);
        double signedY = tallies.get(previous + EpKernel.SY_SIGNED);
        tallies.copyTo(previous + EpKernel.COUNTS, annuli, 0, EpKernel.NQ);
        // A strided index rather than NPB's 2*i, 2*i+1: with it the JIT hoists the heap reads' bounds checks out of
        // the loop (measured on class A: 81 -> 113 Mop/s for this region; plain arrays did 91).
        for (int j = 0; j < count; j += 2) {
            double x1 = 2.0 * xs.get(j) - 1.0;
            double x2 = 2.0 * xs.get(j + 1) - 1.0;
            double t1 = x1 * x1 + x2 * x2;
            if (t1 <= 1.0) {
                double t2 = Math.sqrt(-2.0 * Math.log(t1) / t1);
                double t3 = x1 * t2;
                double t4 = x2 * t2;
                double a3 = Math.abs(t3);
                double a4 = Math.abs(t4);
                int l = (int) Math.max(a3, a4);
                annuli[l] += 1.0;
                sumX += a3;
                sumY += a4;
                signedX += t3;
                signedY += t4;
            }
        }
        tallies.copyFrom(annuli, 0, next + EpKernel.COUNTS, EpKernel.NQ);
        tallies.set(next + EpKernel.SX, sumX);
        tallies.set(next + EpKernel.SY, sumY);
        tallies.set(next + EpKernel.SX_SIGNED, signedX);
        tallies.set(next + EpKernel.SY_SIGNED, signedY);
    }
}
