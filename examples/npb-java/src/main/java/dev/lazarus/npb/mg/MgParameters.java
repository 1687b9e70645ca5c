package dev.lazarus.npb.mg;

import dev.lazarus.npb.common.ProblemClass;
import dev.lazarus.verification.Verdict;
import dev.lazarus.verification.checks.ReferenceValues;

import java.util.Locale;

/**
 * The NPB 3.4 MG problem of one class: grid size, iteration count, smoother coefficients and the reference L2 norm of
 * the final residual (mg.f). Class W is the NPB 3.3+ problem (128^3, 4 iterations), not NPB3.0-JAV's 64^3.
 *
 * @param problemClass the class
 * @param nx           grid points per side of the finest level (a power of two)
 * @param nit          timed V-cycle iterations
 * @param verifyValue  the reference final {@code rnm2}
 * @param c            smoother coefficients {@code c(0..3)}
 */
record MgParameters(ProblemClass problemClass, int nx, int nit, double verifyValue, double[] c) {

    /** NPB's relative-error tolerance on {@code rnm2}. */
    static final double EPSILON = 1.0e-8;

    /** The residual operator A's coefficients {@code a(0..3)}, the same for every class. */
    static double[] residualCoefficients() {
        return new double[] {-8.0 / 3.0, 0.0, 1.0 / 6.0, 1.0 / 12.0};
    }

    /** The S(a) smoother, used by classes S, W and A. */
    private static double[] smootherA() {
        return new double[] {-3.0 / 8.0, 1.0 / 32.0, -1.0 / 64.0, 0.0};
    }

    /** The S(b) smoother, used by classes B and larger. */
    private static double[] smootherB() {
        return new double[] {-3.0 / 17.0, 1.0 / 33.0, -1.0 / 61.0, 0.0};
    }

    /** The official parameters of a class. */
    static MgParameters of(ProblemClass problemClass) {
        return switch (problemClass) {
            case S -> new MgParameters(problemClass, 32, 4, 0.5307707005734e-04, smootherA());
            case W -> new MgParameters(problemClass, 128, 4, 0.6467329375339e-05, smootherA());
            case A -> new MgParameters(problemClass, 256, 4, 0.2433365309069e-05, smootherA());
            case B -> new MgParameters(problemClass, 256, 20, 0.1800564401355e-05, smootherB());
        };
    }

    /** Number of levels: the finest level {@code lt} has {@code nx = 2^lt} points per side, level 1 has 2. */
    int lt() {
        return Integer.numberOfTrailingZeros(nx);
    }

    /** NPB's operation count: 58 flops per grid point per iteration, in Mop/s for {@code seconds}. */
    double mops(double seconds) {
        double nn = (double) nx * nx * nx;
        return seconds > 0.0 ? 58.0 * nit * nn * 1.0e-6 / seconds : 0.0;
    }

    /** NPB's verification: relative error of the final L2 residual norm within {@link #EPSILON}. */
    Verdict verify(double rnm2) {
        Verdict verdict = ReferenceValues.of("rnm2", verifyValue, EPSILON).verify(new double[] {rnm2});
        if (!verdict.accepted()) {
            return verdict;
        }
        return Verdict.accept(String.format(Locale.ROOT, "rnm2=%.13e rel.err=%.3e <= %.0e", rnm2,
                ReferenceValues.relativeError(rnm2, verifyValue), EPSILON));
    }
}
