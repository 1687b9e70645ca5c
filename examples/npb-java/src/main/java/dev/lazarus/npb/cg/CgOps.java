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
     * <p>{@code v} is copied into {@code gathered} first (one {@code memcpy}) and gathered from there: each element of
     * {@code v} is read some {@code nonzeros / na} times (over 100 in class A), and a gather from a heap object by a
     * computed index cost a sign extension and an address add per access that an array's did not (CgLoopsBench's
     * spmv: 1.25 times the array loop, against about 1.1 through the copy; measured before the heap objects' index
     * check told C2 that their offsets fit its addressing, MappedDoubleArray.MAX_CHECKED_LENGTH). Each row pointer is
     * read once, a row starting where the previous one ended.
     *
     * @param gathered scratch of at least {@code v.length()} elements
     */
    static void multiply(IntArray rowstr, IntArray colidx, DoubleArray a, DoubleArray v, double[] gathered,
                         DoubleArray result, int rows, int firstrow) {
        v.copyTo(0, gathered, 0, v.length());
        int start = rowstr.get(0);
        for (int j = 0; j < rows; j++) {
            int end = rowstr.get(j + 1);
            double sum = 0.0;
            for (int k = start; k < end; k++) {
                sum = sum + a.get(k) * gathered[colidx.get(k)];
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
