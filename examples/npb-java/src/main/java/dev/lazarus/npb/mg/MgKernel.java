package dev.lazarus.npb.mg;

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
import dev.lazarus.npb.common.NpbReport;
import dev.lazarus.verification.Verdict;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

import static dev.lazarus.easycrash.Recomputable.pageAligned;

/**
 * NPB 3.4 MG: V-cycle multigrid for the discrete Poisson problem {@code A u = v} on a periodic 3D grid of
 * {@code nx^3} points, slab-decomposed along z (see {@link MgGrid}; coarse levels with fewer planes than ranks are
 * replicated). Verification: relative error of the final residual L2 norm {@code rnm2} against NPB's reference.
 *
 * <p><b>Named data objects</b> (NPB's names) in the persistent heap: {@code r} the residual, one object holding every
 * level as NPB's {@code r(ir(k))} does (level {@code k}'s local array starts at element {@code ir[k]}, the finest level
 * first); the approximate solution split in two, {@code u} its finest level and {@code uCoarse} the coarser levels'
 * corrections in NPB's order; {@code v} the right-hand side
 * (finest level only); {@code rFull} the whole residual of the transition level, gathered before restricting onto a
 * replicated level (only with more than one rank); {@code a} and {@code c} the operator and smoother coefficients
 * (four constants each, plain arrays).
 *
 * <p><b>Code regions</b> of the timed loop, per iteration: NPB's resid, then its mg3P split along the V-cycle's
 * phases. NPB computes the residual before the loop and at the end of each iteration; here each iteration starts with
 * it, so that the finest level of {@code u} is written in the last region only (see below):
 * <ol>
 *   <li>{@link #resid()}: the residual {@code r = v - A u} at level lt (in iteration 1 followed by NPB's timed
 *       norm2u3 of the prologue);</li>
 *   <li>{@link #restrictResidual()}: rprj3 of {@code r} from level lt down to lb;</li>
 *   <li>{@link #solveCoarsest()}: {@code u} at level lb from psinv on {@code r};</li>
 *   <li>{@link #prolongateAndSmooth()}: levels lb+1..lt-1 up: interp of {@code u}, resid into {@code r}, psinv;</li>
 *   <li>{@link #correctFinest()}: level lt: interp into {@code u}, resid {@code r = v - A u}, psinv.</li>
 * </ol>
 * NPB's last resid and norm2u3, which NPB times, run in {@link #verify()} on the {@code u} the loop left, and their
 * time is added to the loop's in the report.
 * {@link #progress(int)} at the start of an iteration only prints NPB's "iter" line and is not a region.
 *
 * <p><b>EasyCrash.</b> {@code u}, the finest level of the solution, is the candidate that matters (the paper's
 * Table 7 and §3): it lives through the main loop, is written in it, and a restart takes it from NVM as it is.
 * {@code uCoarse}, the coarser levels, is a candidate too, but every V-cycle zeroes each level before reading it.
 * Between iterations the state of MG is exactly the finest level of {@code u}: every coarser level is recomputed from
 * the finest before it is read, and each iteration recomputes the finest residual from {@code u} first. Only
 * {@code correctFinest}, the last region, writes the finest {@code u}. A process crash (SIGKILL: memory survives) in
 * any of the first four regions therefore leaves {@code u} as the last completed iteration left it, and the restart
 * from the bookmark reproduces the uninterrupted run bit for bit. A crash in {@code correctFinest} finds {@code u}
 * partly or wholly corrected for the iteration the restart repeats, which NPB's check of rnm2 rejects however well
 * {@code u} was persisted. (With NPB's order, resid last, a crash in resid too found {@code u} already corrected: at
 * class B on 2 ranks 6 of 30 SIGKILLed runs' restarts were accepted.) {@code r} (every level), {@code v} (never written
 * in the loop, rebuilt by zran3) and the scratch {@code rFull} are {@link ObjectRole#REINITIALIZED}. The norms are
 * recomputed from {@code r} after the loop, so nothing else needs to survive.
 */
public final class MgKernel implements RecomputableApplication, Recomputable {
    private static final String NAME = "npb.MG";
    private static final List<String> REGIONS =
            List.of("resid", "restrictResidual", "solveCoarsest", "prolongateAndSmooth", "correctFinest");
    /** Grid points the untimed warm-up V-cycles cover at least (see {@link #warmUpCycles()}). */
    private static final long WARM_UP_POINTS = 1L << 23;
    /** Most warm-up V-cycles (class S). */
    private static final int MAX_WARM_UP_CYCLES = 32;

    private Comm comm;
    private MgParameters params;
    private MgGrid grid;
    private MgHalo halo;
    private boolean quiet;
    private int lt;
    private int lb;
    /** Whether rank 0 prints progress lines: in a run ({@link #announce}), not in a campaign. */
    private boolean progress;

    /** Element offset of level k's local array in {@link #r} (k = lb..lt); see {@link #uOff} for u's levels. */
    private int[] ir;
    /** Elements of {@link #r}: all levels. */
    private int levelsSize;

    /** Approximate solution on the finest level (candidate). */
    private DoubleArray u;
    /**
     * The coarser levels' corrections (a candidate too, though each is zeroed before it is read). A data object of its
     * own so that a crash test's inconsistent rate of {@code u} measures the finest level, the state of MG, and not
     * the coarse levels every V-cycle rewrites (which would hide u's correlation with recomputation).
     */
    private DoubleArray uCoarse;
    /** Right-hand side on the finest level (re-initialized). */
    private DoubleArray v;
    /** Residual, every level (re-initialized from u and v on every start). */
    private DoubleArray r;
    /** Coefficients of the residual operator A. */
    private double[] a;
    /** Coefficients of the smoother. */
    private double[] c;

    /** The whole residual of the transition level (re-initialized scratch); {@code null} on one rank. */
    private DoubleArray rFull;
    /** Row scratch for the stencils (NPB's u1/u2, r1/r2, x1/y1, z1/z2/z3). */
    private double[] w1;
    private double[] w2;
    private double[] w3;
    /** Local {sum of squares, max} and their reductions. */
    private final double[] norms = new double[2];
    private final double[] reduced = new double[2];
    private double rnm2;
    private double rnmu;

    /** Creates the kernel; the work happens in {@link #run}. */
    public MgKernel() {
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Parses the arguments and lays out the levels (everything before the persistent heap is attached). */
    @Override
    public Recomputable prepare(Comm world, String[] args) {
        KernelOptions options = KernelOptions.parse(NAME, args);
        this.comm = world;
        this.quiet = options.quiet();
        this.params = MgParameters.of(options.problemClass());
        this.grid = new MgGrid(params.nx(), world.size(), world.rank());
        this.halo = new MgHalo(world, grid);
        this.lt = grid.lt;
        this.lb = grid.lb;
        setup();
        return this;
    }

    /** The final L2 norm of the residual from the last {@link #run}. */
    double rnm2() {
        return rnm2;
    }

    /** The final max norm of the residual from the last {@link #run}. */
    double rnmu() {
        return rnmu;
    }

    /** Level offsets, coefficients and row scratch (the layout part of NPB's alloc_space and setup). */
    private void setup() {
        a = MgParameters.residualCoefficients();
        c = params.c().clone();
        ir = new int[lt + 1];
        ir[lt] = 0;
        for (int k = lt - 1; k >= lb; k--) {
            ir[k] = ir[k + 1] + grid.size(k + 1);
        }
        levelsSize = ir[lb] + grid.size(lb);
        int m1 = grid.m1(lt);
        w1 = new double[m1];
        w2 = new double[m1];
        w3 = new double[m1];
    }

    /** Elements of {@link #rFull}, or 0 when every level is distributed. */
    private int fullSize() {
        int transition = grid.transitionLevel();
        if (transition == 0) {
            return 0;
        }
        int m = grid.nx[transition] + 2;
        return m * m * m;
    }

    // ---- Recomputable --------------------------------------------------------------------------------------------

    @Override
    public String application() {
        return NAME;
    }

    @Override
    public String signature() {
        return NAME + " --class " + params.problemClass();
    }

    @Override
    public List<String> regions() {
        return REGIONS;
    }

    @Override
    public long heapBytes() {
        return pageAligned(8L * levelsSize) + 2 * pageAligned(8L * grid.size(lt))
                + pageAligned(8L * (levelsSize - grid.size(lt))) + pageAligned(8L * fullSize());
    }

    @Override
    public void attach(EasyCrash easyCrash) {
        u = easyCrash.doubles("u", grid.size(lt));
        uCoarse = easyCrash.doubles("uCoarse", levelsSize - grid.size(lt));
        r = easyCrash.doubles("r", levelsSize, ObjectRole.REINITIALIZED);
        v = easyCrash.doubles("v", grid.size(lt), ObjectRole.REINITIALIZED);
        int full = fullSize();
        rFull = full == 0 ? null : easyCrash.doubles("rFull", full, ObjectRole.REINITIALIZED);
    }

    /**
     * Builds {@code v} (zran3); on a fresh start also NPB's untimed warm-up (V-cycle and residual from
     * {@code u = 0}, see {@link #warmUpCycles()}) and then {@code u = 0}. NPB's timed prologue, the residual of
     * {@code u}, is the first region of every iteration.
     */
    @Override
    public void initialize(boolean fresh) {
        long start = System.nanoTime();
        MgInit.zran3(v, grid, comm, halo);
        if (fresh) {
            MgOps.zero3(u, 0, grid.size(lt));
            for (int cycle = warmUpCycles(); cycle > 0; cycle--) {
                resid();
                norm2u3();
                mg3P();
                resid();
            }
            MgOps.zero3(u, 0, grid.size(lt));
        }
        comm.barrier();
        double tinit = (System.nanoTime() - start) * 1.0e-9;
        if (progress) {
            System.out.printf(Locale.ROOT, " Initialization time: %15.3f seconds%n%n", tinit);
        }
    }

    /**
     * Untimed warm-up V-cycles: NPB's one, and on small grids more, until they cover {@link #WARM_UP_POINTS} grid
     * points (S 32, W 4, A and B 1). Heap objects are memory segments, whose accesses run 7 to 9 times slower than
     * array accesses until C2 has compiled the stencils, and one V-cycle of class S or W is too short for that: on a
     * loaded 2-core machine class S took 0.2 s of main-loop CPU time with one warm-up V-cycle against 0.02 s on
     * arrays, and 0.02 s with 32. Every rank runs the same count, so the halo exchanges match.
     */
    private int warmUpCycles() {
        long points = (long) params.nx() * params.nx() * params.nx();
        return (int) Math.max(1, Math.min(MAX_WARM_UP_CYCLES, WARM_UP_POINTS / points));
    }

    @Override
    public int iterations() {
        return params.nit();
    }

    @Override
    public void iterate(int it, EasyCrash easyCrash) {
        iterate(it, easyCrash, REGIONS.size());
    }

    /** Runs the first {@code regions} regions of iteration {@code it} (all of them but in crash tests). */
    void iterate(int it, EasyCrash easyCrash, int regions) {
        progress(it);
        for (int region = 0; region < regions; region++) {
            switch (region) {
                case 0 -> {
                    resid();
                    if (it == 1) {
                        norm2u3();   // NPB's prologue times it; its value is not used
                    }
                }
                case 1 -> restrictResidual();
                case 2 -> solveCoarsest();
                case 3 -> prolongateAndSmooth();
                default -> correctFinest();
            }
            easyCrash.endRegion(region, it);
        }
    }

    /**
     * NPB's last resid and norm2u3 on the {@code u} the loop left, then NPB's check of rnm2, with rank 0's value on
     * every rank so that all return the same verdict.
     */
    @Override
    public Verdict verify() {
        resid();
        norm2u3();
        reduced[0] = rnm2;
        comm.bcast(reduced, 0, 1, ElementType.DOUBLE, 0);
        rnm2 = reduced[0];
        return params.verify(rnm2);
    }

    /** One V-cycle (NPB's mg3P), as the sequence of its regions. */
    private void mg3P() {
        restrictResidual();
        solveCoarsest();
        prolongateAndSmooth();
        correctFinest();
    }

    // ---- regions of the timed loop -------------------------------------------------------------------------------

    /** Region 2: restrict the residual from the finest grid down to the coarsest. */
    private void restrictResidual() {
        for (int k = lt; k >= lb + 1; k--) {
            rprj3(k);
        }
    }

    /** Region 3: approximate solution on the coarsest grid. */
    private void solveCoarsest() {
        MgOps.zero3(uLevel(lb), uOff(lb), grid.size(lb));
        psinv(lb);
    }

    /** Region 4: on the way up, prolongate the coarser correction, form the residual and smooth. */
    private void prolongateAndSmooth() {
        for (int k = lb + 1; k <= lt - 1; k++) {
            MgOps.zero3(uLevel(k), uOff(k), grid.size(k));
            interp(k);
            residAt(k, r, ir[k]);
            psinv(k);
        }
    }

    /** Region 5: correct the finest approximation, recompute its residual against v and smooth. */
    private void correctFinest() {
        interp(lt);
        residAt(lt, v, 0);
        psinv(lt);
    }

    /** Region 1 (NPB's resid before mg3P): the residual r = v - A u on the finest grid. */
    private void resid() {
        residAt(lt, v, 0);
    }

    // ---- level operations ----------------------------------------------------------------------------------------

    /** r[k] = rhs - A u[k], then its ghosts; {@code rhs} at element {@code rhsOff} may be r[k] itself. */
    private void residAt(int k, DoubleArray rhs, int rhsOff) {
        int m1 = grid.m1(k);
        MgOps.resid(uLevel(k), uOff(k), rhs, rhsOff, r, ir[k], m1, m1, grid.m3(k), a, w1, w2);
        halo.comm3(r, ir[k], k);
    }

    /** u[k] += C r[k], then its ghosts. */
    private void psinv(int k) {
        int m1 = grid.m1(k);
        MgOps.psinv(r, ir[k], uLevel(k), uOff(k), m1, m1, grid.m3(k), c, w1, w2);
        halo.comm3(uLevel(k), uOff(k), k);
    }

    /** r[k-1] = P r[k], then its ghosts; a replicated coarse level restricts from the gathered fine level. */
    private void rprj3(int k) {
        int j = k - 1;
        DoubleArray fine = r;
        int fineOff = ir[k];
        int m3k = grid.m3(k);
        if (grid.distributed[k] && !grid.distributed[j]) {
            halo.gatherLevel(r, ir[k], k, rFull);
            fine = rFull;
            fineOff = 0;
            m3k = grid.nx[k] + 2;
        }
        MgOps.rprj3(fine, fineOff, grid.m1(k), grid.m1(k), m3k, r, ir[j], grid.m1(j), grid.m1(j), grid.m3(j), w1,
                w2);
        halo.comm3(r, ir[j], j);
    }

    /** u[k] += Q u[k-1]; ghosts included, so no exchange is needed (as in NPB). */
    private void interp(int k) {
        int j = k - 1;
        MgOps.interp(uLevel(j), uOff(j), grid.m1(j), grid.m1(j), grid.zOff[j],
                uLevel(k), uOff(k), grid.m1(k), grid.m1(k), grid.m3(k), grid.zOff[k], w1, w2, w3);
    }

    /** The object holding level k of the solution: {@link #u} for the finest, {@link #uCoarse} below. */
    private DoubleArray uLevel(int k) {
        return k == lt ? u : uCoarse;
    }

    /** Element offset of level k's local array in {@link #uLevel}: NPB's ir(k) less the finest level. */
    private int uOff(int k) {
        return k == lt ? 0 : ir[k] - grid.size(lt);
    }

    /** NPB's norm2u3 on the finest residual: L2 norm into rnm2, max norm into rnmu. */
    private void norm2u3() {
        int m1 = grid.m1(lt);
        MgOps.norm2u3Local(r, ir[lt], m1, m1, grid.m3(lt), norms);
        comm.allreduce(norms, 0, reduced, 0, 1, ReduceOp.SUM);
        comm.allreduce(norms, 1, reduced, 1, 1, ReduceOp.MAX);
        double dn = (double) params.nx() * params.nx() * params.nx();
        rnm2 = Math.sqrt(reduced[0] / dn);
        rnmu = reduced[1];
    }

    // ---- output --------------------------------------------------------------------------------------------------

    /** Prints NPB's "iter" line on rank 0 for the first, last and every fifth iteration. */
    private void progress(int it) {
        if (progress && (it == 1 || it == params.nit() || it % 5 == 0)) {
            System.out.printf(Locale.ROOT, "  iter %3d%n", it);
        }
    }

    @Override
    public void announce() {
        progress = !quiet && comm.rank() == 0;
        if (!progress) {
            return;
        }
        PrintStream out = System.out;
        int n = params.nx();
        out.printf(Locale.ROOT, "%n%n NAS Parallel Benchmarks (NPB3.4 Lazarus Java) - MG Benchmark%n%n");
        out.printf(Locale.ROOT, " Size: %4dx%4dx%4d  (class %s)%n", n, n, n, params.problemClass());
        out.printf(Locale.ROOT, " Iterations: %5d%n", params.nit());
        out.printf(Locale.ROOT, " Number of processes: %5d%n", comm.size());
    }

    @Override
    public void report(RecomputingRun.Outcome outcome, double wallSeconds) {
        if (comm.rank() != 0) {
            return;
        }
        // NPB's timed section ends with the final resid and norm2u3, which verify() runs.
        double seconds = outcome.seconds() + outcome.verificationSeconds();
        if (!quiet) {
            System.out.printf(Locale.ROOT, "%n Benchmark completed%n L2 Norm is %20.13e%n", rnm2);
        }
        if (outcome.resumed()) {
            System.out.printf(Locale.ROOT, " Resumed from NVM at iteration %d: the time covers iterations %d to %d%n",
                    outcome.firstIteration(), outcome.firstIteration(), params.nit());
        }
        int n = params.nx();
        new NpbReport("MG", params.problemClass(), n + "x" + n + "x" + n, params.nit(), seconds, comm.size(),
                params.mops(seconds), "floating point", outcome.verdict(), comm.backend()).print(System.out);
    }
}
