package dev.lazarus.npb.ep;

import dev.lazarus.npb.common.ProblemClass;
import dev.lazarus.verification.Verdict;
import dev.lazarus.verification.checks.ReferenceValues;

/**
 * NPB's EP reference values for one class and the check against them: relative error at most {@code 1e-8} on
 * {@code sx}, {@code sy} and {@code gc} (NPB 3.4.2, sums of absolute values) and on the signed sums of NPB 3.3.
 *
 * @param sxRef       NPB 3.4 sum of |X|
 * @param syRef       NPB 3.4 sum of |Y|
 * @param gcRef       NPB 3.4 number of Gaussian pairs
 * @param sxSignedRef NPB 3.3 sum of X
 * @param sySignedRef NPB 3.3 sum of Y
 */
record EpVerification(double sxRef, double syRef, double gcRef, double sxSignedRef, double sySignedRef) {

    /** The reference values of NPB 3.4.2 ({@code ep/verify.f90}) and NPB 3.3 ({@code ep.f}). */
    static EpVerification forClass(ProblemClass pc) {
        return switch (pc) {
            case S -> new EpVerification(1.051299420395306e+07, 1.051517131857535e+07, 13176389.0,
                    -3.247834652034740e+3, -6.958407078382297e+3);
            case W -> new EpVerification(2.102505525182392e+07, 2.103162209578822e+07, 26354769.0,
                    -2.863319731645753e+3, -6.320053679109499e+3);
            case A -> new EpVerification(1.682235632304711e+08, 1.682195123368299e+08, 210832767.0,
                    -4.295875165629892e+3, -1.580732573678431e+4);
            case B -> new EpVerification(6.728927543423024e+08, 6.728951822504275e+08, 843345606.0,
                    4.033815542441498e+4, -2.660669192809235e+4);
        };
    }

    /** Accepts only if all five values are within NPB's relative tolerance. */
    Verdict verify(double sx, double sy, double gc, double sxSigned, double sySigned) {
        ReferenceValues check = new ReferenceValues(
                new String[] {"sx", "sy", "gc", "sx(3.3 signed)", "sy(3.3 signed)"},
                new double[] {sxRef, syRef, gcRef, sxSignedRef, sySignedRef}, EpKernel.EPSILON);
        return check.verify(new double[] {sx, sy, gc, sxSigned, sySigned});
    }
}
