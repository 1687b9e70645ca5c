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
        double state = seed;
        for (int i = 0; i < count; i++) {
            state = NpbRandom.multiplyMod46(state, a);
            xs.set(i, R46 * state);
        }
    }

    /**
     * Turns each pair {@code xs[2i], xs[2i+1]} of {@code xs[0 .. count)} into a pair of Gaussian deviates (Marsaglia
     * polar method, rejecting pairs outside the unit disc) and tallies counts per annulus in {@code annuli}, pair by
     * pair as NPB does. The sums are accumulated in registers, starting from and stored back to {@code sums} at the
     * indices {@link EpKernel#SX}, {@link EpKernel#SY}, {@link EpKernel#SX_SIGNED} and {@link EpKernel#SY_SIGNED}.
     */
    static void tallyGaussianPairs(DoubleArray xs, DoubleArray annuli, DoubleArray sums, int count) {
        double sumX = sums.get(EpKernel.SX);
        double sumY = sums.get(EpKernel.SY);
        double signedX = sums.get(EpKernel.SX_SIGNED);
        double signedY = sums.get(EpKernel.SY_SIGNED);
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
                annuli.set(l, annuli.get(l) + 1.0);
                sumX += a3;
                sumY += a4;
                signedX += t3;
                signedY += t4;
            }
        }
        sums.set(EpKernel.SX, sumX);
        sums.set(EpKernel.SY, sumY);
        sums.set(EpKernel.SX_SIGNED, signedX);
        sums.set(EpKernel.SY_SIGNED, signedY);
    }
}
