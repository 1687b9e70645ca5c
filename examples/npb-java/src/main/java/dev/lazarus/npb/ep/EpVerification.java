package dev.lazarus.npb.ep;

import dev.lazarus.npb.common.ProblemClass;
import dev.lazarus.verification.Verdict;
import dev.lazarus.verification.checks.ReferenceValues;

import java.util.Locale;

/**
 * NPB's EP reference values for one class and the check against them: relative error at most {@code 1e-8} on
 * {@code sx}, {@code sy} and {@code gc} (NPB 3.4.2, sums of absolute values) and on the signed sums of NPB 3.3, and
 * every annulus count exactly. NPB checks only the sums and {@code gc}, which a count changed in NVM can leave within
 * tolerance (a pair moved to another annulus, a count no longer a whole number, or at class B a count off by up to 8),
 * while EP reports every count.
 *
 * @param sxRef       NPB 3.4 sum of |X|
 * @param syRef       NPB 3.4 sum of |Y|
 * @param gcRef       NPB 3.4 number of Gaussian pairs
 * @param sxSignedRef NPB 3.3 sum of X
 * @param sySignedRef NPB 3.3 sum of Y
 * @param countRefs   the number of pairs in each annulus, {@link EpKernel#NQ} of them, summing to {@code gcRef}
 */
record EpVerification(double sxRef, double syRef, double gcRef, double sxSignedRef, double sySignedRef,
                      long[] countRefs) {

    /**
     * The reference values of NPB 3.4.2 ({@code ep/verify.f90}) and NPB 3.3 ({@code ep.f}). NPB verifies no counts,
     * so these were obtained by clean runs of this kernel on one thread rank (2026-11, sums and {@code gc} verified
     * against NPB's, counts summing to {@code gc}); class S's are also the counts NPB 3.3.1 prints, and A's and B's
     * those of an independent port. They do not depend on the rank count: sums of whole numbers below {@code 2^53}.
     */
    static EpVerification forClass(ProblemClass pc) {
        return switch (pc) {
            case S -> new EpVerification(1.051299420395306e+07, 1.051517131857535e+07, 13176389.0,
                    -3.247834652034740e+3, -6.958407078382297e+3,
                    new long[] {6140517, 5865300, 1100361, 68546, 1648, 17, 0, 0, 0, 0});
            case W -> new EpVerification(2.102505525182392e+07, 2.103162209578822e+07, 26354769.0,
                    -2.863319731645753e+3, -6.320053679109499e+3,
                    new long[] {12281576, 11729692, 2202726, 137368, 3371, 36, 0, 0, 0, 0});
            case A -> new EpVerification(1.682235632304711e+08, 1.682195123368299e+08, 210832767.0,
                    -4.295875165629892e+3, -1.580732573678431e+4,
                    new long[] {98257395, 93827014, 17611549, 1110028, 26536, 245, 0, 0, 0, 0});
            case B -> new EpVerification(6.728927543423024e+08, 6.728951822504275e+08, 843345606.0,
                    4.033815542441498e+4, -2.660669192809235e+4,
                    new long[] {393058470, 375280898, 70460742, 4438852, 105691, 948, 5, 0, 0, 0});
        };
    }

    /** Accepts only if all five values are within NPB's relative tolerance and every count is exactly its reference. */
    Verdict verify(double sx, double sy, double gc, double sxSigned, double sySigned, double[] counts) {
        ReferenceValues check = new ReferenceValues(
                new String[] {"sx", "sy", "gc", "sx(3.3 signed)", "sy(3.3 signed)"},
                new double[] {sxRef, syRef, gcRef, sxSignedRef, sySignedRef}, EpKernel.EPSILON);
        return check.verify(new double[] {sx, sy, gc, sxSigned, sySigned}).and(verifyCounts(counts));
    }

    /** Every annulus count equal to its reference (NaN never is). */
    Verdict verifyCounts(double[] counts) {
        if (counts.length != countRefs.length) {
            return Verdict.reject("expected " + countRefs.length + " annulus counts, got " + counts.length);
        }
        for (int l = 0; l < counts.length; l++) {
            if (counts[l] != countRefs[l]) {
                return Verdict.reject(String.format(Locale.ROOT, "q[%d]=%s reference=%d: annulus counts must be exact",
                        l, counts[l], countRefs[l]));
            }
        }
        return Verdict.accept("all " + counts.length + " annulus counts exact");
    }
}
