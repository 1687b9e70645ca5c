package dev.lazarus.npb.cg;

import dev.lazarus.npb.common.ProblemClass;

/**
 * The NPB 3.4 CG problem sizes and reference values (from {@code cg.f}: {@code na}, {@code nonzer}, {@code niter},
 * {@code shift} and {@code zeta_verify_value}).
 *
 * @param na         order of the matrix (rows and columns)
 * @param nonzer     nonzeros of each generated sparse vector, before the diagonal is added
 * @param niter      timed outer (inverse power) iterations
 * @param shift      the eigenvalue shift subtracted from the diagonal
 * @param zetaVerify the reference value of the final zeta
 */
public record CgParameters(int na, int nonzer, int niter, double shift, double zetaVerify) {

    /** NPB's {@code rcond}: bounds the smallest eigenvalue of the generated matrix from below. */
    public static final double RCOND = 0.1;
    /** NPB's {@code cgitmax}: conjugate gradient steps per outer iteration. */
    public static final int CGITMAX = 25;
    /** NPB's relative tolerance on zeta. */
    public static final double EPSILON = 1.0e-10;

    /** The parameters of an NPB class. */
    public static CgParameters of(ProblemClass problemClass) {
        return switch (problemClass) {
            case S -> new CgParameters(1400, 7, 15, 10.0, 8.5971775078648);
            case W -> new CgParameters(7000, 8, 15, 12.0, 10.362595087124);
            case A -> new CgParameters(14000, 11, 15, 20.0, 17.130235054029);
            case B -> new CgParameters(75000, 13, 75, 60.0, 22.712745482631);
        };
    }

    /** NPB's operation count for the whole timed section, turned into Mop/s; 0 if no time was measured. */
    public double mops(double seconds) {
        if (!(seconds > 0.0)) {
            return 0.0;
        }
        double perRow = nonzer * (double) (nonzer + 1);
        return 1.0e-6 * 2 * niter * (double) na * (3.0 + perRow + 25.0 * (5.0 + perRow) + 3.0) / seconds;
    }
}
