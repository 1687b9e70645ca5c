package dev.lazarus.npb.heat;

import dev.lazarus.easycrash.DoubleArray;

/**
 * The red-black SOR sweep of {@link HeatKernel} and its source term, on the grid objects: the kernel calls them, and
 * so do the JMH benchmarks of the sweep, which therefore time the kernel's own code on either implementation of the
 * objects (persistent heap or plain arrays).
 */
final class HeatOps {
    private HeatOps() {
    }

    /**
     * Sets the interior of local rows {@code 1 .. rows} of {@code f} to the source {@code 2 pi^2 sin(pi x) sin(pi y)}
     * at {@code x = column * h}, {@code y = (firstRow + i - 1) * h}; the boundary columns are left as they are.
     */
    static void source(DoubleArray f, int rows, int n, int firstRow, double h) {
        int w = n + 2;
        for (int i = 1; i <= rows; i++) {
            double y = (firstRow + i - 1) * h;
            for (int j = 1; j <= n; j++) {
                double x = j * h;
                f.set(i * w + j, 2 * Math.PI * Math.PI * Math.sin(Math.PI * x) * Math.sin(Math.PI * y));
            }
        }
    }

    /**
     * Updates the points of local rows {@code 1 .. rows} whose global {@code (row + column)} parity is {@code color}:
     * {@code u += omega (GS - u)}, where {@code GS = (u_west + u_east + u_north + u_south + h^2 f) / 4} is the
     * Gauss-Seidel value. The grids are {@code n + 2} wide (a boundary column each side) and local row {@code i} is
     * global row {@code firstRow + i - 1}.
     *
     * <p>The inner loop runs over the element index {@code k} itself, two at a time, rather than over the column:
     * on the persistent heap the JIT hoists the bounds checks of {@code f[k]} and {@code u[k]} out of the loop only
     * when the index is the loop variable. Its exit test is {@code k < end}: with {@code k <= last} and a stride of
     * two, C2 on JDK 25 compiled the heap loop as an uncounted loop (a safepoint poll and six index checks per point,
     * no unrolling; HeatLoopsBench class S 1.77 times the array loop, which it did count), and with {@code <} it
     * unrolls it four times with the checks hoisted (1.13).
     */
    static void sweep(DoubleArray u, DoubleArray f, int rows, int n, int firstRow, int color, double h2,
                      double omega) {
        int w = n + 2;
        for (int i = 1; i <= rows; i++) {
            int globalRow = firstRow + i - 1;
            int row = i * w;
            int first = row + 1 + ((globalRow + 1 + color) & 1);
            int end = row + n + 1;
            for (int k = first; k < end; k += 2) {
                double gaussSeidel = 0.25 * (u.get(k - 1) + u.get(k + 1) + u.get(k - w) + u.get(k + w)
                        + h2 * f.get(k));
                u.set(k, u.get(k) + omega * (gaussSeidel - u.get(k)));
            }
        }
    }
}
