package dev.lazarus.npb.cg;

import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.ElementType;
import dev.lazarus.mpi.MpiApplication;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.npb.common.KernelOptions;
import dev.lazarus.npb.common.NpbReport;
import dev.lazarus.npb.common.ProblemClass;
import dev.lazarus.verification.Verdict;
import dev.lazarus.verification.checks.ReferenceValues;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;

/**
 * NPB 3.4 CG: estimates the smallest eigenvalue of a large sparse symmetric positive definite matrix by inverse power
 * iteration, each step solving {@code A z = x} approximately with 25 unpreconditioned conjugate gradient steps.
 *
 * <p><b>Decomposition.</b> A 1-D row-block distribution instead of NPB's 2-D process grid: rank {@code k} owns the
 * rows {@code k*block .. (k+1)*block - 1} of {@code A} (the last rank fewer when {@code na} is not a multiple of the
 * rank count) and the same slices of the vectors. The vectors are stored full length, indexed by global row, padded to
 * {@code size * block} so that the direction {@code p} (and {@code z} before the residual check) can be assembled with
 * an equal-block {@code allgather}; padding entries are never written locally and stay zero. Dot products are local
 * sums combined with {@code allreduce}. Every rank runs NPB's generator for the whole random sequence but assembles
 * only its own rows, which come out bit for bit as in the serial code.
 *
 * <p><b>Named data objects</b> (NPB's names): {@code a}, {@code colidx}, {@code rowstr} (this rank's rows of the
 * matrix in compressed-row form, global column indices); {@code x} (current eigenvector estimate), {@code z}
 * (solution of {@code A z = x}), {@code p} (search direction, assembled in full every CG step), {@code q}
 * ({@code A p}), {@code r} (residual); the scalars {@code rnorm}, {@code zeta} and {@code normTemp}
 * ({@code x.z} and {@code z.z}).
 *
 * <p><b>Code regions</b> of the timed main loop, in order:
 * <ol>
 *   <li>{@code conjGrad()}: 25 CG steps on {@code A z = x} and the explicit residual norm {@code ||x - A z||};</li>
 *   <li>{@code computeNorms()}: the global dot products {@code x.z} and {@code z.z};</li>
 *   <li>{@code updateZeta(it)}: {@code zeta = shift + 1 / (x.z)} and the progress line;</li>
 *   <li>{@code normalizeX()}: {@code x = z / ||z||}.</li>
 * </ol>
 * One untimed iteration runs first, as in NPB, after which {@code x} is reset to all ones.
 */
public final class CgKernel implements MpiApplication {
    private static final String NAME = "npb.CG";

    private Comm comm;
    private ProblemClass problemClass;
    private CgParameters params;
    private boolean progress;
    private PrintStream out = System.out;

    /** First global row this rank owns. */
    private int firstrow;
    /** Number of rows this rank owns (possibly fewer than {@link #block} on the last rank). */
    private int rows;
    /** Rows per rank in the equal-block layout used for assembling vectors. */
    private int block;

    // ---- named data objects ---------------------------------------------------------------------------------------
    private double[] a;
    private int[] colidx;
    private int[] rowstr;
    private double[] x;
    private double[] z;
    private double[] p;
    private double[] q;
    private double[] r;
    private double rnorm;
    private double zeta;
    private final double[] normTemp = new double[2];

    /** One-element buffer for scalar all-reductions, so the hot loop does not allocate. */
    private final double[] scalar = new double[1];

    /** Creates the kernel; the launcher calls {@link #run}. */
    public CgKernel() {
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * Runs CG on this rank.
     *
     * @return 0 if zeta verifies against NPB's reference value, 1 otherwise (the same on every rank)
     */
    @Override
    public int run(Comm comm, String[] args) {
        KernelOptions options = KernelOptions.parse(NAME, args);
        this.comm = comm;
        this.problemClass = options.problemClass();
        this.params = CgParameters.of(problemClass);
        this.progress = !options.quiet() && comm.rank() == 0;
        long initStart = System.nanoTime();
        setUp();
        if (progress) {
            printHeader();
        }
        warmUp();
        double initSeconds = (System.nanoTime() - initStart) * 1.0e-9;
        if (progress) {
            out.printf(Locale.ROOT, " Initialization time = %15.3f seconds%n", initSeconds);
        }

        comm.barrier();
        long start = System.nanoTime();
        for (int it = 1; it <= params.niter(); it++) {
            conjGrad();
            computeNorms();
            updateZeta(it);
            normalizeX();
        }
        double seconds = (System.nanoTime() - start) * 1.0e-9;

        double slowest = comm.allreduce(seconds, ReduceOp.MAX);
        // Verify rank 0's zeta everywhere so that every rank returns the same status.
        scalar[0] = zeta;
        comm.bcast(scalar, 0, 1, ElementType.DOUBLE, 0);
        Verdict verdict = verify(params, scalar[0]);
        if (comm.rank() == 0) {
            report(slowest, verdict);
        }
        return verdict.accepted() ? 0 : 1;
    }

    /** NPB's check: {@code |zeta - zeta_verify| / zeta_verify <= 1e-10}; NaN never passes. */
    static Verdict verify(CgParameters params, double zeta) {
        return ReferenceValues.of("zeta", params.zetaVerify(), CgParameters.EPSILON).verify(new double[] {zeta});
    }

    /** The final zeta of the last run (for tests). */
    double zeta() {
        return zeta;
    }

    /** Sends the progress lines and report somewhere else than standard output (for tests). */
    void output(PrintStream stream) {
        this.out = stream;
    }

    // ---- set-up ---------------------------------------------------------------------------------------------------

    /** Partitions the rows, builds this rank's rows of the matrix and allocates the vectors. */
    private void setUp() {
        int na = params.na();
        int size = comm.size();
        if (size > na) {
            throw new IllegalArgumentException(NAME + ": class " + problemClass + " supports 1 to " + na
                    + " ranks, not " + size);
        }
        block = (na + size - 1) / size;
        firstrow = Math.min(na, comm.rank() * block);
        rows = Math.min(na, firstrow + block) - firstrow;

        CgMatrix matrix = CgMatrix.makea(na, params.nonzer(), CgParameters.RCOND, params.shift(), firstrow, rows);
        a = matrix.a;
        colidx = matrix.colidx;
        rowstr = matrix.rowstr;

        int padded = size * block;
        x = new double[padded];
        z = new double[padded];
        p = new double[padded];
        q = new double[padded];
        r = new double[padded];
        resetX();
    }

    /** NPB's untimed first iteration, which also warms up the JIT, then the reset of {@code x}. */
    private void warmUp() {
        conjGrad();
        computeNorms();
        normalizeX();
        resetX();
        zeta = 0.0;
    }

    /** Sets the starting vector to all ones (the padding stays zero). */
    private void resetX() {
        Arrays.fill(x, 0, params.na(), 1.0);
    }

    // ---- code regions of the main loop ----------------------------------------------------------------------------

    /**
     * Region 1, NPB's {@code conj_grad}: 25 CG steps from {@code z = 0}, {@code r = p = x}, then
     * {@code rnorm = ||x - A z||} computed explicitly.
     */
    private void conjGrad() {
        int lo = firstrow;
        int hi = firstrow + rows;
        for (int j = lo; j < hi; j++) {
            q[j] = 0.0;
            z[j] = 0.0;
            r[j] = x[j];
            p[j] = r[j];
        }
        double rho = sumOverRanks(localDot(r, r));

        for (int cgit = 1; cgit <= CgParameters.CGITMAX; cgit++) {
            assemble(p); // A p needs every column of p
            multiply(p, q);
            double d = sumOverRanks(localDot(p, q));
            double alpha = rho / d;
            double rho0 = rho;
            for (int j = lo; j < hi; j++) {
                z[j] = z[j] + alpha * p[j];
                r[j] = r[j] - alpha * q[j];
            }
            rho = sumOverRanks(localDot(r, r));
            double beta = rho / rho0;
            for (int j = lo; j < hi; j++) {
                p[j] = r[j] + beta * p[j];
            }
        }

        assemble(z); // A z needs every column of z
        multiply(z, r); // r now holds A z
        double sum = 0.0;
        for (int j = lo; j < hi; j++) {
            double d = x[j] - r[j];
            sum = sum + d * d;
        }
        rnorm = Math.sqrt(sumOverRanks(sum));
    }

    /** Region 2: {@code normTemp = (x.z, z.z)} over all ranks, in one all-reduction. */
    private void computeNorms() {
        double xz = 0.0;
        double zz = 0.0;
        for (int j = firstrow; j < firstrow + rows; j++) {
            xz = xz + x[j] * z[j];
            zz = zz + z[j] * z[j];
        }
        normTemp[0] = xz;
        normTemp[1] = zz;
        comm.allreduce(normTemp, 0, normTemp, 0, 2, ElementType.DOUBLE, ReduceOp.SUM);
    }

    /** Region 3: the eigenvalue estimate {@code zeta = shift + 1 / (x.z)}, printed as NPB does. */
    private void updateZeta(int it) {
        zeta = params.shift() + 1.0 / normTemp[0];
        if (progress) {
            if (it == 1) {
                out.println();
                out.println("   iteration           ||r||                 zeta");
            }
            out.printf(Locale.ROOT, "    %5d       %20.14E%20.13f%n", it, rnorm, zeta);
        }
    }

    /** Region 4: {@code x = z / ||z||}, the next inverse power iterate. */
    private void normalizeX() {
        double scale = 1.0 / Math.sqrt(normTemp[1]);
        for (int j = firstrow; j < firstrow + rows; j++) {
            x[j] = scale * z[j];
        }
    }

    // ---- building blocks ------------------------------------------------------------------------------------------

    /** {@code out = A v} on this rank's rows. */
    private void multiply(double[] v, double[] result) {
        for (int j = 0; j < rows; j++) {
            double sum = 0.0;
            for (int k = rowstr[j]; k < rowstr[j + 1]; k++) {
                sum = sum + a[k] * v[colidx[k]];
            }
            result[firstrow + j] = sum;
        }
    }

    /** This rank's part of {@code u.v}. */
    private double localDot(double[] u, double[] v) {
        double sum = 0.0;
        for (int j = firstrow; j < firstrow + rows; j++) {
            sum = sum + u[j] * v[j];
        }
        return sum;
    }

    /** Sum of {@code value} over all ranks. */
    private double sumOverRanks(double value) {
        scalar[0] = value;
        comm.allreduce(scalar, 0, scalar, 0, 1, ElementType.DOUBLE, ReduceOp.SUM);
        return scalar[0];
    }

    /** Gathers every rank's block of {@code v} into every rank's copy (in place; the padding carries zeros). */
    private void assemble(double[] v) {
        if (comm.size() > 1) {
            comm.allgather(v, comm.rank() * block, block, v, 0, ElementType.DOUBLE);
        }
    }

    // ---- output ---------------------------------------------------------------------------------------------------

    private void printHeader() {
        out.printf(Locale.ROOT, "%n%n NAS Parallel Benchmarks 3.4 -- CG Benchmark (Lazarus Java)%n%n");
        out.printf(Locale.ROOT, " Size: %10d  (class %s)%n", params.na(), problemClass);
        out.printf(Locale.ROOT, " Iterations: %5d%n", params.niter());
        out.printf(Locale.ROOT, " Number of processes: %5d%n", comm.size());
        out.printf(Locale.ROOT, " Number of nonzeroes per row: %8d%n", params.nonzer());
        out.printf(Locale.ROOT, " Eigenvalue shift: %9.3f%n", params.shift());
    }

    private void report(double seconds, Verdict verdict) {
        if (progress) {
            out.println(" Benchmark completed ");
            out.println(verdict.accepted() ? " VERIFICATION SUCCESSFUL " : " VERIFICATION FAILED");
            out.printf(Locale.ROOT, " Zeta is    %20.13E%n", zeta);
            out.printf(Locale.ROOT, " Error is   %20.13E%n",
                    ReferenceValues.relativeError(zeta, params.zetaVerify()));
        }
        new NpbReport("CG", problemClass, Integer.toString(params.na()), params.niter(), seconds,
                comm.size(), params.mops(seconds), "floating point", verdict, comm.backend()).print(out);
    }
}
