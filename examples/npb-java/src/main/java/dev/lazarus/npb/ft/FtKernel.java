package dev.lazarus.npb.ft;

import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.MpiApplication;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.npb.common.KernelOptions;
import dev.lazarus.npb.common.NpbRandom;
import dev.lazarus.npb.common.NpbReport;
import dev.lazarus.verification.Verdict;

import java.io.PrintStream;
import java.util.Locale;

/**
 * NPB FT: solves a 3D diffusion PDE {@code du/dt = alpha * laplacian(u)} spectrally. The random initial field is
 * transformed forward once; each time step multiplies the spectrum by {@code exp(-4 alpha pi^2 |k|^2)}, transforms
 * it back and takes a checksum of 1024 fixed points. MPI-parallel over a 1D slab decomposition (NPB's "1D layout"):
 * z-planes for the x and y FFTs, y-rows after one all-to-all transpose for the z FFTs (see {@link SlabFft}).
 * Rank counts: powers of two up to {@code min(ny, nz)} (S 64, W 32, A 128, B 256).
 *
 * <p><b>Named data objects</b> (NPB's names), all interleaved (re, im) {@code double[]}:
 * <ul>
 *   <li>{@code u0}: the spectrum in zxy layout, evolved in place (one more time step per iteration)</li>
 *   <li>{@code u1}: working copy of {@code u0} handed to the inverse FFT, which overwrites it</li>
 *   <li>{@code u2}: the field in physical space (xyz layout), result of the inverse FFT</li>
 *   <li>{@code twiddle}: the per-step evolution factors in zxy layout (real, half the size of the others)</li>
 *   <li>{@code sums}: the checksum of every iteration (complex {@code t} = iteration {@code t})</li>
 * </ul>
 *
 * <p><b>Code regions</b> of the timed main loop {@code for (iter) { evolve(); fft(); checksum(iter); }}:
 * {@code evolve} ({@code u0 *= twiddle; u1 = u0}), {@code fft} (inverse 3D FFT {@code u1 -> u2}, with the
 * all-to-all), {@code checksum} (local sum and all-reduce into {@code sums}).
 *
 * <p><b>Memory</b>: 3.5 full-size arrays, {@code 56 * nx*ny*nz / np} bytes per rank: S 15 MB, W 29 MB,
 * A 470 MB, B 1.88 GB (on one rank; 470 MB per rank on four). The heap must hold that, e.g. {@code -Xmx3g} for
 * class B on one rank; the kernel refuses to start with a smaller maximum heap.
 */
public final class FtKernel implements MpiApplication {
    /** NPB's seed for the initial conditions. */
    static final double SEED = 314159265.0;
    /** Diffusion constant. */
    static final double ALPHA = 1.0e-6;
    /** Number of points in every checksum. */
    private static final int CHECKSUM_POINTS = 1024;

    private Comm comm;
    private FtProblem problem;
    private SlabFft fft;
    private int me;
    private int np;
    private boolean quiet;

    private double[] u0;
    private double[] u1;
    private double[] u2;
    private double[] twiddle;
    private double[] sums;
    /** This rank's share of a checksum and the global one: separate, so the all-reduce need not copy in place. */
    private final double[] localSum = new double[2];
    private final double[] globalSum = new double[2];

    @Override
    public String name() {
        return "npb.FT";
    }

    /**
     * Runs FT with {@code [--class S|W|A|B] [--quiet]}.
     *
     * @return 0 iff every iteration's checksum verifies
     * @throws IllegalArgumentException for bad arguments, an unsupported rank count, or too small a heap
     */
    @Override
    public int run(Comm comm, String[] args) {
        KernelOptions options = KernelOptions.parse(name(), args);
        FtProblem p = FtProblem.of(options.problemClass());
        checkRanks(p, comm.size(), options.problemClass().name());
        allocate(comm, p, options.quiet());
        if (me == 0) {
            printHeader(System.out);
        }
        // Run setup and the forward FFT once untimed, as NPB does, so every page is touched (and the JIT warm).
        setup();
        fft.forward(u1, u0);

        comm.barrier();
        long start = System.nanoTime();
        setup();
        fft.forward(u1, u0);
        for (int iter = 1; iter <= problem.niter(); iter++) {
            evolve();
            fft();
            checksum(iter);
        }
        Verdict verdict = problem.verify(sums);
        double seconds = comm.allreduce((System.nanoTime() - start) * 1.0e-9, ReduceOp.MAX);

        if (me == 0) {
            new NpbReport("FT", options.problemClass(), problem.sizeText(), problem.niter(), seconds, np,
                    problem.mops(seconds), "floating point", verdict, comm.backend()).print(System.out);
        }
        return verdict.accepted() ? 0 : 1;
    }

    /** Rejects rank counts the slab decomposition cannot split evenly. */
    static void checkRanks(FtProblem p, int ranks, String className) {
        if (ranks < 1 || Integer.bitCount(ranks) != 1 || ranks > p.maxRanks()) {
            throw new IllegalArgumentException("npb.FT class " + className + " (" + p.sizeText()
                    + ") runs on a power of two from 1 to " + p.maxRanks() + " ranks, not " + ranks);
        }
    }

    /** Allocates the data objects, after checking that the heap can hold them. */
    private void allocate(Comm c, FtProblem p, boolean q) {
        this.comm = c;
        this.problem = p;
        this.me = c.rank();
        this.np = c.size();
        this.quiet = q;
        long local = 2L * p.ntotal() / np;
        long needed = 8L * (3 * local + local / 2);
        long max = Runtime.getRuntime().maxMemory();
        if (max != Long.MAX_VALUE && needed > max) {
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                    "npb.FT %s on %d rank(s) needs %d MB of heap per rank for u0, u1, u2, twiddle; max heap is %d MB"
                            + " (raise -Xmx or use more ranks)", p.sizeText(), np, needed >> 20, max >> 20));
        }
        this.fft = new SlabFft(p.nx(), p.ny(), p.nz(), np,
                (send, recv, count) -> c.alltoall(send, 0, count, recv, 0));
        this.u0 = new double[(int) local];
        this.u1 = new double[(int) local];
        this.u2 = new double[(int) local];
        this.twiddle = new double[(int) (local / 2)];
        this.sums = new double[2 * (p.niter() + 1)];
    }

    /** NPB's setup inside the timed section: evolution factors and initial conditions (into {@code u1}). */
    private void setup() {
        computeTwiddle(twiddle, problem, me, np);
        computeInitialConditions(u1, problem, me, np);
    }

    // ---- the code regions of the main loop -------------------------------------------------------------------

    /** Region evolve: one more time step of the spectrum, {@code u0 *= twiddle}, and a copy for the FFT. */
    private void evolve() {
        double[] a = u0;
        double[] b = u1;
        double[] t = twiddle;
        for (int i = 0; i < t.length; i++) {
            double f = t[i];
            double re = a[2 * i] * f;
            double im = a[2 * i + 1] * f;
            a[2 * i] = re;
            a[2 * i + 1] = im;
            b[2 * i] = re;
            b[2 * i + 1] = im;
        }
    }

    /** Region fft: inverse 3D FFT of {@code u1} (overwritten) into {@code u2}, physical space. */
    private void fft() {
        fft.inverse(u1, u2);
    }

    /** Region checksum: the sum of u2 at 1024 fixed points, over all ranks, divided by ntotal. */
    private void checksum(int iter) {
        localChecksum(u2, problem, me, np, localSum);
        comm.allreduce(localSum, 0, globalSum, 0, 2, ReduceOp.SUM);
        sums[2 * iter] = globalSum[0];
        sums[2 * iter + 1] = globalSum[1];
        if (me == 0 && !quiet) {
            System.out.printf(Locale.ROOT, " T =%5d     Checksum =%22.12E%22.12E%n", iter, globalSum[0], globalSum[1]);
        }
    }

    // ---- serial building blocks (package-private for tests) --------------------------------------------------

    /**
     * Evolution factors {@code exp(-4 alpha pi^2 (kx^2 + ky^2 + kz^2))} for this rank's zxy slab, with wave numbers
     * folded to {@code [-n/2, n/2)} as NPB's {@code compute_indexmap}.
     */
    static void computeTwiddle(double[] twiddle, FtProblem p, int rank, int ranks) {
        int nx = p.nx();
        int ny = p.ny();
        int nz = p.nz();
        int nyl = ny / ranks;
        double ap = -4.0 * ALPHA * Math.PI * Math.PI;
        for (int jl = 0; jl < nyl; jl++) {
            int jj = fold(rank * nyl + jl, ny);
            for (int i = 0; i < nx; i++) {
                int ii = fold(i, nx);
                int ij2 = ii * ii + jj * jj;
                int base = nz * (i + nx * jl);
                for (int k = 0; k < nz; k++) {
                    int kk = fold(k, nz);
                    twiddle[base + k] = Math.exp(ap * (kk * kk + ij2));
                }
            }
        }
    }

    /** Index {@code i} of an n-point FFT as a signed wave number: 0, 1, ..., n/2-1, -n/2, ..., -1. */
    static int fold(int i, int n) {
        return (i + n / 2) % n - n / 2;
    }

    /**
     * NPB's {@code compute_initial_conditions} for this rank's xyz slab: the generator stream fills the grid plane
     * by plane, x fastest, real then imaginary part; each rank jumps straight to its first plane with
     * {@code a^(2*nx*ny*zStart)} instead of generating the planes before it.
     */
    static void computeInitialConditions(double[] u, FtProblem p, int rank, int ranks) {
        int planeDoubles = 2 * p.nx() * p.ny();
        int nzl = p.nz() / ranks;
        double planeJump = NpbRandom.power(NpbRandom.A, planeDoubles);
        double start = NpbRandom.multiplyMod46(SEED, NpbRandom.power(NpbRandom.A, (long) planeDoubles * rank * nzl));
        NpbRandom rng = new NpbRandom(start);
        for (int k = 0; k < nzl; k++) {
            rng.seed(start);
            rng.vranlc(planeDoubles, NpbRandom.A, u, k * planeDoubles);
            start = NpbRandom.multiplyMod46(start, planeJump);
        }
    }

    /**
     * Adds up this rank's share of the checksum points {@code (j mod nx, 3j mod ny, 5j mod nz)}, j = 1..1024, of
     * an xyz slab and divides by ntotal; {@code out} gets (re, im).
     */
    static void localChecksum(double[] u, FtProblem p, int rank, int ranks, double[] out) {
        int nx = p.nx();
        int ny = p.ny();
        int nz = p.nz();
        int nzl = nz / ranks;
        int z0 = rank * nzl;
        double re = 0.0;
        double im = 0.0;
        for (int j = 1; j <= CHECKSUM_POINTS; j++) {
            int s = (5 * j) % nz - z0;
            if (s >= 0 && s < nzl) {
                int q = j % nx;
                int r = (3 * j) % ny;
                int idx = 2 * (q + nx * (r + ny * s));
                re += u[idx];
                im += u[idx + 1];
            }
        }
        double n = p.ntotal();
        out[0] = re / n;
        out[1] = im / n;
    }

    private void printHeader(PrintStream out) {
        out.printf(Locale.ROOT, "%n%n NAS Parallel Benchmarks 3.4 -- FT Benchmark (Lazarus Java)%n%n");
        out.printf(Locale.ROOT, " Size                : %4dx%4dx%4d%n", problem.nx(), problem.ny(), problem.nz());
        out.printf(Locale.ROOT, " Iterations          :        %7d%n", problem.niter());
        out.printf(Locale.ROOT, " Number of processes :        %7d%n", np);
        out.printf(Locale.ROOT, " Processor array     :      %4dx%4d%n", 1, np);
        out.printf(Locale.ROOT, " Layout type         :           %s%n%n", "1D");
        out.flush();
    }
}
