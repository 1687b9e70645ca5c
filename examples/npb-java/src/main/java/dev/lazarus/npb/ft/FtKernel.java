package dev.lazarus.npb.ft;

import dev.lazarus.easycrash.DoubleArray;
import dev.lazarus.easycrash.EasyCrash;
import dev.lazarus.easycrash.ObjectRole;
import dev.lazarus.easycrash.Recomputable;
import dev.lazarus.easycrash.RecomputableApplication;
import dev.lazarus.easycrash.RecomputingRun;
import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.ElementType;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.npb.common.KernelOptions;
import dev.lazarus.npb.common.NpbRandom;
import dev.lazarus.npb.common.NpbReport;
import dev.lazarus.npb.common.ProblemClass;
import dev.lazarus.verification.Verdict;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

import static dev.lazarus.easycrash.Recomputable.pageAligned;

/**
 * NPB FT: solves a 3D diffusion PDE {@code du/dt = alpha * laplacian(u)} spectrally. The random initial field is
 * transformed forward once; each time step multiplies the spectrum by {@code exp(-4 alpha pi^2 |k|^2)}, transforms
 * it back and takes a checksum of 1024 fixed points. MPI-parallel over a 1D slab decomposition (NPB's "1D layout"):
 * z-planes for the x and y FFTs, y-rows after one all-to-all transpose for the z FFTs (see {@link SlabFft}).
 * Rank counts: powers of two up to {@code min(ny, nz)} (S 64, W 32, A 128, B 256).
 *
 * <p><b>Named data objects</b> (NPB's names), all interleaved (re, im) doubles in the rank's persistent heap:
 * <ul>
 *   <li>{@code u0}: the spectrum in zxy layout, evolved in place (one more time step per iteration)</li>
 *   <li>{@code u1}: working copy of {@code u0} handed to the inverse FFT, which overwrites it</li>
 *   <li>{@code u2}: the field in physical space (xyz layout), result of the inverse FFT</li>
 *   <li>{@code twiddle}: the per-step evolution factors in zxy layout (real, half the size of the others)</li>
 *   <li>{@code sums}: the checksum of every iteration (complex {@code t} = iteration {@code t})</li>
 * </ul>
 * The FFT's line scratch (NPB's {@code ty1}, {@code ty2}) is two small plain arrays inside {@link SlabFft}.
 *
 * <p><b>Code regions</b> of the timed main loop {@code for (iter) { evolve(); fft(); checksum(iter); }}:
 * {@code evolve} ({@code u0 *= twiddle; u1 = u0}), {@code fft} (inverse 3D FFT {@code u1 -> u2}, with the
 * all-to-all), {@code checksum} (local sum and all-reduce into {@code sums}).
 *
 * <p><b>EasyCrash.</b> {@code u0}, {@code u1}, {@code u2} and {@code sums} are the candidates (they live through the
 * main loop and are written in it) and a restart takes them from NVM as they are; {@code twiddle} is never written in
 * the loop and is rebuilt by {@link #initialize} on every start ({@link ObjectRole#REINITIALIZED}). Between iterations
 * the state of FT is {@code u0} (the spectrum after the iterations done) and {@code sums}: {@code u1} and {@code u2}
 * are overwritten before they are read. So a restart at iteration {@code k} continues the spectrum from NVM and still
 * verifies the checksums of iterations 1 to {@code k-1}, which {@code sums} kept. A crash inside an iteration after
 * {@code evolve} has multiplied {@code u0} (in place, not idempotent) makes the restart evolve that step twice: its
 * checksums miss NPB's and the run rolls back. Verification compares every iteration's checksum, FT's whole reported
 * result; a checksum adds the field at the points {@code (j, 3j, 5j)}, which sees only the spectral modes of one
 * lattice (1/64 of them at class S), and the evolution never mixes modes, so a value of another mode changed in NVM
 * leaves the checksums right (up to rounding) and is accepted, although the field differs. NPB's timed section also
 * holds the set-up (twiddle, initial conditions) and the forward FFT before the loop; on a fresh start
 * {@link #initialize} runs them last, times them, and the report adds that time to the loop's.
 *
 * <p><b>Memory</b>: 3.5 full-size arrays, {@code 56 * nx*ny*nz / np} bytes of persistent heap per rank (a file in the
 * NVM directory, {@code /dev/shm} by default): S 15 MB, W 29 MB, A 470 MB, B 1.88 GB (on one rank; 470 MB per rank on
 * four).
 */
public final class FtKernel implements RecomputableApplication, Recomputable {
    /** NPB's seed for the initial conditions. */
    static final double SEED = 314159265.0;
    /** Diffusion constant. */
    static final double ALPHA = 1.0e-6;
    private static final String NAME = "npb.FT";
    private static final List<String> REGIONS = List.of("evolve", "fft", "checksum");
    /** Number of points in every checksum. */
    private static final int CHECKSUM_POINTS = 1024;
    /** Grid points the untimed warm-up time steps cover at least (see {@link #warmUpSteps()}). */
    private static final long WARM_UP_POINTS = 1L << 23;
    /** Most warm-up time steps. */
    private static final int MAX_WARM_UP_STEPS = 32;

    private Comm comm;
    private ProblemClass problemClass;
    private FtProblem problem;
    private SlabFft fft;
    private int me;
    private int np;
    private boolean quiet;
    /** Whether rank 0 prints progress lines: in a run ({@link #announce}), not in a campaign. */
    private boolean progress;

    private DoubleArray u0;
    private DoubleArray u1;
    private DoubleArray u2;
    private DoubleArray twiddle;
    private DoubleArray sums;
    /** This rank's share of a checksum and the global one: separate, so the all-reduce need not copy in place. */
    private final double[] localSum = new double[2];
    private final double[] globalSum = new double[2];
    /** Slowest rank's seconds of NPB's timed set-up and forward FFT in this start (0 on a restart). */
    private double prologueSeconds;
    /** The checksums the last verification saw (for tests). */
    private double[] verifiedSums;

    @Override
    public String name() {
        return NAME;
    }

    /** Parses the arguments and sets up the decomposition (everything before the persistent heap is attached). */
    @Override
    public Recomputable prepare(Comm world, String[] args) {
        KernelOptions options = KernelOptions.parse(NAME, args);
        FtProblem p = FtProblem.of(options.problemClass());
        checkRanks(p, world.size(), options.problemClass().name());
        this.comm = world;
        this.problemClass = options.problemClass();
        this.problem = p;
        this.me = world.rank();
        this.np = world.size();
        this.quiet = options.quiet();
        this.fft = new SlabFft(p.nx(), p.ny(), p.nz(), np, (send, recv, count) ->
                world.alltoall(send.segment(), 0, count, recv.segment(), 0, ElementType.DOUBLE));
        return this;
    }

    @Override
    public void announce() {
        progress = me == 0 && !quiet;
        if (me == 0) {
            printHeader(System.out);
        }
    }

    @Override
    public void report(RecomputingRun.Outcome outcome, double wallSeconds) {
        if (me != 0) {
            return;
        }
        // NPB's timed section is the set-up and forward FFT plus the loop; the set-up ran in this attempt only if it
        // started fresh (a restart resumes with u0 from NVM).
        double seconds = outcome.seconds() + prologueSeconds;
        if (outcome.resumed()) {
            int first = outcome.firstIteration();
            System.out.printf(Locale.ROOT, " Resumed from NVM at iteration %d: the time covers iterations %d to"
                    + " %d%n", first, first, problem.niter());
        }
        new NpbReport("FT", problemClass, problem.sizeText(), problem.niter(), seconds, np,
                problem.mops(seconds), "floating point", outcome.verdict(), comm.backend()).print(System.out);
    }

    /** The interleaved checksums (entry 0 unused) that the last verification checked. */
    double[] verifiedSums() {
        return verifiedSums.clone();
    }

    /** Rejects rank counts the slab decomposition cannot split evenly. */
    static void checkRanks(FtProblem p, int ranks, String className) {
        if (ranks < 1 || Integer.bitCount(ranks) != 1 || ranks > p.maxRanks()) {
            throw new IllegalArgumentException("npb.FT class " + className + " (" + p.sizeText()
                    + ") runs on a power of two from 1 to " + p.maxRanks() + " ranks, not " + ranks);
        }
    }

    // ---- Recomputable --------------------------------------------------------------------------------------------

    @Override
    public String application() {
        return NAME;
    }

    @Override
    public String signature() {
        return NAME + " --class " + problemClass;
    }

    @Override
    public List<String> regions() {
        return REGIONS;
    }

    @Override
    public long heapBytes() {
        long local = fft.localDoubles();
        return 3 * pageAligned(8L * local) + pageAligned(8L * (local / 2)) + pageAligned(8L * sumsLength());
    }

    private int sumsLength() {
        return 2 * (problem.niter() + 1);
    }

    @Override
    public void attach(EasyCrash easyCrash) {
        int local = fft.localDoubles();
        u0 = easyCrash.doubles("u0", local);
        u1 = easyCrash.doubles("u1", local);
        u2 = easyCrash.doubles("u2", local);
        sums = easyCrash.doubles("sums", sumsLength());
        twiddle = easyCrash.doubles("twiddle", local / 2, ObjectRole.REINITIALIZED);
    }

    /**
     * Builds {@code twiddle}. On a fresh start also NPB's untimed warm-up (set-up and forward FFT, here followed by
     * time steps, see {@link #warmUpSteps()}), then the candidates' initial state: {@code sums} zero and NPB's timed
     * set-up and forward FFT, {@code u0} = FFT of the initial conditions. On a restart {@code u0} and {@code sums}
     * stay as NVM kept them.
     */
    @Override
    public void initialize(boolean fresh) {
        prologueSeconds = 0.0;
        if (!fresh) {
            computeTwiddle(twiddle, problem, me, np);
            return;
        }
        setup();
        fft.forward(u1, u0);
        for (int step = warmUpSteps(); step > 0; step--) {
            evolve();
            fft();
            checksum(0);
        }
        sums.fill(0.0);
        comm.barrier();
        long start = System.nanoTime();
        setup();
        fft.forward(u1, u0);
        prologueSeconds = comm.allreduce((System.nanoTime() - start) * 1.0e-9, ReduceOp.MAX);
    }

    /**
     * Untimed warm-up time steps on a fresh start, on small grids until they cover {@link #WARM_UP_POINTS} grid
     * points (S 32, W 16, A and B 1). NPB's warm-up (set-up and forward FFT) never runs evolve, the inverse transpose
     * or checksum; heap objects are memory segments, whose accesses run several times slower than array accesses
     * until C2 has compiled the loop, so the first timed iterations would run them cold. The timed set-up starts the
     * spectrum again from the initial conditions, so the warm-up changes no result.
     */
    private int warmUpSteps() {
        return (int) Math.max(1, Math.min(MAX_WARM_UP_STEPS, WARM_UP_POINTS / problem.ntotal()));
    }

    @Override
    public int iterations() {
        return problem.niter();
    }

    /** None past the end: every iteration's checksum is verified against NPB's value for that iteration. */
    @Override
    public int maxIterations() {
        return problem.niter();
    }

    @Override
    public void iterate(int iter, EasyCrash easyCrash) {
        iterate(iter, easyCrash, REGIONS.size());
    }

    /** Runs the first {@code regions} regions of iteration {@code iter} (all of them but in crash tests). */
    void iterate(int iter, EasyCrash easyCrash, int regions) {
        for (int region = 0; region < regions; region++) {
            switch (region) {
                case 0 -> evolve();
                case 1 -> fft();
                default -> checksum(iter);
            }
            easyCrash.endRegion(region, iter);
        }
    }

    /** NPB's verification of every iteration's checksum, with rank 0's checksums on every rank. */
    @Override
    public Verdict verify() {
        double[] values = sums.toArray();
        comm.bcast(values, 0, values.length, ElementType.DOUBLE, 0);
        verifiedSums = values;
        return problem.verify(values);
    }

    /** NPB's set-up inside the timed section: evolution factors and initial conditions (into {@code u1}). */
    private void setup() {
        computeTwiddle(twiddle, problem, me, np);
        computeInitialConditions(u1, problem, me, np);
    }

    // ---- the code regions of the main loop -------------------------------------------------------------------

    /** Region evolve: one more time step of the spectrum, {@code u0 *= twiddle}, and a copy for the FFT. */
    private void evolve() {
        evolve(u0, u1, twiddle);
    }

    /**
     * {@code u0 *= twiddle} (complex {@code u0} times real {@code twiddle}, element by element) and {@code u1 = u0}.
     */
    static void evolve(DoubleArray u0, DoubleArray u1, DoubleArray twiddle) {
        u0.scaleComplex(twiddle, u1);   // a bulk operation, as the loop stores into two objects and loads a third
    }

    /** Region fft: inverse 3D FFT of {@code u1} (overwritten) into {@code u2}, physical space. */
    private void fft() {
        fft.inverse(u1, u2);
    }

    /**
     * Region checksum: the sum of u2 at 1024 fixed points, over all ranks, divided by ntotal, kept as iteration
     * {@code iter}'s (0 = a warm-up step: the unused entry, and nothing printed).
     */
    private void checksum(int iter) {
        localChecksum(u2, problem, me, np, localSum);
        comm.allreduce(localSum, 0, globalSum, 0, 2, ReduceOp.SUM);
        sums.set(2 * iter, globalSum[0]);
        sums.set(2 * iter + 1, globalSum[1]);
        if (progress && iter > 0) {
            System.out.printf(Locale.ROOT, " T =%5d     Checksum =%22.12E%22.12E%n", iter, globalSum[0], globalSum[1]);
        }
    }

    // ---- serial building blocks (package-private for tests) --------------------------------------------------

    /**
     * Evolution factors {@code exp(-4 alpha pi^2 (kx^2 + ky^2 + kz^2))} for this rank's zxy slab, with wave numbers
     * folded to {@code [-n/2, n/2)} as NPB's {@code compute_indexmap}.
     */
    static void computeTwiddle(DoubleArray twiddle, FtProblem p, int rank, int ranks) {
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
                long base = (long) nz * (i + nx * jl);
                for (int k = 0; k < nz; k++) {
                    int kk = fold(k, nz);
                    twiddle.set(base, k, Math.exp(ap * (kk * kk + ij2)));
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
    static void computeInitialConditions(DoubleArray u, FtProblem p, int rank, int ranks) {
        int planeDoubles = 2 * p.nx() * p.ny();
        int nzl = p.nz() / ranks;
        double planeJump = NpbRandom.power(NpbRandom.A, planeDoubles);
        double start = NpbRandom.multiplyMod46(SEED, NpbRandom.power(NpbRandom.A, (long) planeDoubles * rank * nzl));
        NpbRandom rng = new NpbRandom(start);
        double[] plane = new double[planeDoubles];
        for (int k = 0; k < nzl; k++) {
            rng.seed(start);
            rng.vranlc(planeDoubles, NpbRandom.A, plane, 0);
            u.copyFrom(plane, 0, k * planeDoubles, planeDoubles);
            start = NpbRandom.multiplyMod46(start, planeJump);
        }
    }

    /**
     * Adds up this rank's share of the checksum points {@code (j mod nx, 3j mod ny, 5j mod nz)}, j = 1..1024, of
     * an xyz slab and divides by ntotal; {@code out} gets (re, im).
     */
    static void localChecksum(DoubleArray u, FtProblem p, int rank, int ranks, double[] out) {
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
                re += u.get(idx);
                im += u.get(idx + 1);
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
