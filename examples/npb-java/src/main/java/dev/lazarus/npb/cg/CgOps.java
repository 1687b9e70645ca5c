package dev.lazarus.npb.cg;

import dev.lazarus.easycrash.DoubleArray;
import dev.lazarus.easycrash.IntArray;

/**
 * CG's inner loops, on the data objects and scalars they need: {@link CgKernel} calls them, and so do the JMH
 * benchmarks of the loops, which therefore time the kernel's own code on either implementation of the objects
 * (persistent heap or plain arrays).
 *
 * <p>Each method performs the floating-point operations of NPB's loops in NPB's order. The objects and bounds arrive
 * as parameters, so nothing is re-read from a field inside a loop.
 */
final class CgOps {
    private CgOps() {
    }

    /**
     * {@code result[firstrow + j] = sum_k a[k] * v[colidx[k]]} over {@code k} in {@code rowstr[j] .. rowstr[j+1]-1},
     * for the block's rows {@code j = 0 .. rows-1} (NPB's sparse matrix-vector product, summed in column order).
     *
     * <p>The gather reads {@code v} where it lives, as NPB reads its array: a heap object's index check bounds the
     * byte offset to {@code int} range, so C2 folds {@code v}'s address into the load as it does an array's base
     * (MappedDoubleArray.MAX_CHECKED_LENGTH), with every loop value in a register. CgLoopsBench's spmv, class A,
     * heap / plain 0.98. Copying {@code v} into a Java array first, which this method did before that check, left a
     * copy's code ahead of the loop, and C2 then kept the array's length on the stack inside it (1.06 to 1.07). Each
     * row pointer is read once, a row starting where the previous one ended.
     */
    static void multiply(IntArray rowstr, IntArray colidx, DoubleArray a, DoubleArray v, DoubleArray result, int rows,
                         int firstrow) {
        int start = rowstr.get(0);
        for (int j = 0; j < rows; j++) {
            int end = rowstr.get(j + 1);
            double sum = 0.0;
            for (int k = start; k < end; k++) {
                sum = sum + a.get(k) * v.get(colidx.get(k));
            }
            result.set(firstrow + j, sum);
            start = end;
        }
    }

    /** {@code sum_j u[j] * v[j]} over {@code j} in {@code [from, to)}, in index order (this rank's part of u.v). */
    static double localDot(DoubleArray u, DoubleArray v, int from, int to) {
        double sum = 0.0;
        for (int j = from; j < to; j++) {
            sum = sum + u.get(j) * v.get(j);
        }
        return sum;
    }

    /**
     * One CG step's update of the solution and residual on {@code [from, to)}: {@code z += alpha p, r -= alpha q}.
     * {@code r + (-alpha) q} is NPB's {@code r - alpha q} to the bit ({@code -alpha * q == -(alpha * q)} exactly).
     * Bulk operations, as these loops store into one object and load another (see {@link DoubleArray#addScaled}).
     */
    static void updateSolutionAndResidual(DoubleArray z, DoubleArray r, DoubleArray p, DoubleArray q, double alpha,
                                          int from, int to) {
        z.addScaled(alpha, p, from, to);
        r.addScaled(-alpha, q, from, to);
    }

    /** The next search direction on {@code [from, to)}: {@code p = r + beta p}. */
    static void updateDirection(DoubleArray p, DoubleArray r, double beta, int from, int to) {
        p.scaleAndAdd(beta, r, from, to);
    }

    /** {@code sum_j (x[j] - y[j])^2} over {@code j} in {@code [from, to)}, in index order. */
    static double squaredDistance(DoubleArray x, DoubleArray y, int from, int to) {
        double sum = 0.0;
        for (int j = from; j < to; j++) {
            double d = x.get(j) - y.get(j);
            sum = sum + d * d;
        }
        return sum;
    }
}
