package dev.lazarus.npb.mg;

import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.MpiApplication;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.npb.common.KernelOptions;
import dev.lazarus.npb.common.NpbReport;
import dev.lazarus.verification.Verdict;

import java.io.PrintStream;
import java.util.Locale;

/**
 * NPB 3.4 MG: V-cycle multigrid for the discrete Poisson problem {@code A u = v} on a periodic 3D grid of
 * {@code nx^3} points, slab-decomposed along z (see {@link MgGrid}; coarse levels with fewer planes than ranks are
 * replicated). Verification: relative error of the final residual L2 norm {@code rnm2} against NPB's reference.
 *
 * <p>Named data objects (NPB's names): {@code u} the approximate solution and its corrections, one array per level;
 * {@code v} the right-hand side (finest level); {@code r} the residual, one array per level; {@code a} and {@code c}
 * the operator and smoother coefficients.
 *
 * <p>The timed loop runs, per iteration, the first-level code regions (NPB's mg3P split along its V-cycle phases,
 * then NPB's resid):
 * <ol>
 *   <li>{@link #restrictResidual()}: rprj3 of {@code r} from level lt down to lb;</li>
 *   <li>{@link #solveCoarsest()}: {@code u} at level lb from psinv on {@code r};</li>
 *   <li>{@link #prolongateAndSmooth()}: levels lb+1..lt-1 up: interp of {@code u}, resid into {@code r}, psinv;</li>
 *   <li>{@link #correctFinest()}: level lt: interp into {@code u}, resid {@code r = v - A u}, psinv;</li>
 *   <li>{@link #resid()}: the new residual {@code r = v - A u} at level lt.</li>
 * </ol>
 * {@link #progress(int)} at the start of an iteration only prints NPB's "iter" line and is not a region.
 */
public final class MgKernel implements MpiApplication {
    private Comm comm;
    private MgParameters params;
    private MgGrid grid;
    private MgHalo halo;
    private boolean quiet;
    private int lt;
    private int lb;

    /** Approximate solution: {@code u[k]} is level k's local array (k = lb..lt). */
    private double[][] u;
    /** Right-hand side on the finest level. */
    private double[] v;
    /** Residual: {@code r[k]} is level k's local array (k = lb..lt). */
    private double[][] r;
    /** Coefficients of the residual operator A. */
    private double[] a;
    /** Coefficients of the smoother. */
    private double[] c;

    /** The whole residual of the transition level, assembled before restricting onto a replicated level. */
    private double[] rFull;
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
        return "npb.MG";
    }

    /**
     * Runs NPB MG on this rank: {@code [--class S|W|A|B] [--quiet]}.
     *
     * @return 0 iff the verification succeeded (the same status on every rank)
     * @throws IllegalArgumentException for bad arguments or an unsupported number of ranks
     */
    @Override
    public int run(Comm comm, String[] args) {
        KernelOptions options = KernelOptions.parse(name(), args);
        this.comm = comm;
        this.quiet = options.quiet();
        this.params = MgParameters.of(options.problemClass());
        this.grid = new MgGrid(params.nx(), comm.size(), comm.rank());
        this.halo = new MgHalo(comm, grid);
        this.lt = grid.lt;
        this.lb = grid.lb;
        long start = System.nanoTime();
        setup();
        initialize();
        double tinit = (System.nanoTime() - start) * 1.0e-9;
        header(tinit);
        double seconds = comm.allreduce(timedRun(), ReduceOp.MAX);
        Verdict verdict = params.verify(rnm2);
        if (comm.rank() == 0) {
            report(seconds, verdict);
        }
        return verdict.accepted() ? 0 : 1;
    }

    /** The final L2 norm of the residual from the last {@link #run}. */
    double rnm2() {
        return rnm2;
    }

    /** The final max norm of the residual from the last {@link #run}. */
    double rnmu() {
        return rnmu;
    }

    /** Allocates the per-level arrays (NPB's alloc_space and setup). */
    private void setup() {
        a = MgParameters.residualCoefficients();
        c = params.c().clone();
        u = new double[lt + 1][];
        r = new double[lt + 1][];
        for (int k = lb; k <= lt; k++) {
            u[k] = new double[grid.size(k)];
            r[k] = new double[grid.size(k)];
        }
        v = new double[grid.size(lt)];
        int transition = grid.transitionLevel();
        if (transition > 0) {
            int m = grid.nx[transition] + 2;
            rFull = new double[m * m * m];
        }
        int m1 = grid.m1(lt);
        w1 = new double[m1];
        w2 = new double[m1];
        w3 = new double[m1];
    }

    /** NPB's untimed start: problem, one warm-up V-cycle and residual, then the problem again. */
    private void initialize() {
        MgOps.zero3(u[lt]);
        MgInit.zran3(v, grid, comm, halo);
        resid();
        norm2u3();
        mg3P();
        resid();
        MgOps.zero3(u[lt]);
        MgInit.zran3(v, grid, comm, halo);
        comm.barrier();
    }

    /** The benchmark proper; returns this rank's seconds. */
    private double timedRun() {
        long start = System.nanoTime();
        resid();
        norm2u3();
        for (int it = 1; it <= params.nit(); it++) {
            progress(it);
            restrictResidual();
            solveCoarsest();
            prolongateAndSmooth();
            correctFinest();
            resid();
        }
        norm2u3();
        return (System.nanoTime() - start) * 1.0e-9;
    }

    /** One V-cycle (NPB's mg3P), as the sequence of its regions. */
    private void mg3P() {
        restrictResidual();
        solveCoarsest();
        prolongateAndSmooth();
        correctFinest();
    }

    // ---- regions of the timed loop -------------------------------------------------------------------------------

    /** Region 1: restrict the residual from the finest grid down to the coarsest. */
    private void restrictResidual() {
        for (int k = lt; k >= lb + 1; k--) {
            rprj3(k);
        }
    }

    /** Region 2: approximate solution on the coarsest grid. */
    private void solveCoarsest() {
        MgOps.zero3(u[lb]);
        psinv(lb);
    }

    /** Region 3: on the way up, prolongate the coarser correction, form the residual and smooth. */
    private void prolongateAndSmooth() {
        for (int k = lb + 1; k <= lt - 1; k++) {
            MgOps.zero3(u[k]);
            interp(k);
            residAt(k, r[k]);
            psinv(k);
        }
    }

    /** Region 4: correct the finest approximation, recompute its residual against v and smooth. */
    private void correctFinest() {
        interp(lt);
        residAt(lt, v);
        psinv(lt);
    }

    /** Region 5 (NPB's resid after mg3P): the residual r = v - A u on the finest grid. */
    private void resid() {
        residAt(lt, v);
    }

    // ---- level operations ----------------------------------------------------------------------------------------

    /** r[k] = rhs - A u[k], then its ghosts; {@code rhs} may be r[k] itself. */
    private void residAt(int k, double[] rhs) {
        int m1 = grid.m1(k);
        MgOps.resid(u[k], rhs, r[k], m1, m1, grid.m3(k), a, w1, w2);
        halo.comm3(r[k], k);
    }

    /** u[k] += C r[k], then its ghosts. */
    private void psinv(int k) {
        int m1 = grid.m1(k);
        MgOps.psinv(r[k], u[k], m1, m1, grid.m3(k), c, w1, w2);
        halo.comm3(u[k], k);
    }

    /** r[k-1] = P r[k], then its ghosts; a replicated coarse level restricts from the gathered fine level. */
    private void rprj3(int k) {
        int j = k - 1;
        double[] fine = r[k];
        int m3k = grid.m3(k);
        if (grid.distributed[k] && !grid.distributed[j]) {
            halo.gatherLevel(r[k], k, rFull);
            fine = rFull;
            m3k = grid.nx[k] + 2;
        }
        MgOps.rprj3(fine, grid.m1(k), grid.m1(k), m3k, r[j], grid.m1(j), grid.m1(j), grid.m3(j), w1, w2);
        halo.comm3(r[j], j);
    }

    /** u[k] += Q u[k-1]; ghosts included, so no exchange is needed (as in NPB). */
    private void interp(int k) {
        int j = k - 1;
        MgOps.interp(u[j], grid.m1(j), grid.m1(j), grid.zOff[j],
                u[k], grid.m1(k), grid.m1(k), grid.m3(k), grid.zOff[k], w1, w2, w3);
    }

    /** NPB's norm2u3 on the finest residual: L2 norm into rnm2, max norm into rnmu. */
    private void norm2u3() {
        int m1 = grid.m1(lt);
        MgOps.norm2u3Local(r[lt], m1, m1, grid.m3(lt), norms);
        comm.allreduce(norms, 0, reduced, 0, 1, ReduceOp.SUM);
        comm.allreduce(norms, 1, reduced, 1, 1, ReduceOp.MAX);
        double dn = (double) params.nx() * params.nx() * params.nx();
        rnm2 = Math.sqrt(reduced[0] / dn);
        rnmu = reduced[1];
    }

    // ---- output --------------------------------------------------------------------------------------------------

    /** Prints NPB's "iter" line on rank 0 for the first, last and every fifth iteration. */
    private void progress(int it) {
        if (!quiet && comm.rank() == 0 && (it == 1 || it == params.nit() || it % 5 == 0)) {
            System.out.printf(Locale.ROOT, "  iter %3d%n", it);
        }
    }

    private void header(double tinit) {
        if (quiet || comm.rank() != 0) {
            return;
        }
        PrintStream out = System.out;
        int n = params.nx();
        out.printf(Locale.ROOT, "%n%n NAS Parallel Benchmarks (NPB3.4 Lazarus Java) - MG Benchmark%n%n");
        out.printf(Locale.ROOT, " Size: %4dx%4dx%4d  (class %s)%n", n, n, n, params.problemClass());
        out.printf(Locale.ROOT, " Iterations: %5d%n", params.nit());
        out.printf(Locale.ROOT, " Number of processes: %5d%n", comm.size());
        out.printf(Locale.ROOT, " Initialization time: %15.3f seconds%n%n", tinit);
    }

    private void report(double seconds, Verdict verdict) {
        if (!quiet) {
            System.out.printf(Locale.ROOT, "%n Benchmark completed%n L2 Norm is %20.13e%n", rnm2);
        }
        int n = params.nx();
        new NpbReport("MG", params.problemClass(), n + "x" + n + "x" + n, params.nit(), seconds, comm.size(),
                params.mops(seconds), "floating point", verdict, comm.backend()).print(System.out);
    }
}
