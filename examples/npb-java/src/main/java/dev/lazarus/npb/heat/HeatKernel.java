package dev.lazarus.npb.heat;

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
import dev.lazarus.npb.common.ProblemClass;
import dev.lazarus.verification.Verdict;
import dev.lazarus.verification.checks.ResidualThreshold;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

import static dev.lazarus.easycrash.Recomputable.pageAligned;

/**
 * Solves {@code -laplace(u) = f} on the unit square with {@code u = 0} on the boundary and
 * {@code f = 2 pi^2 sin(pi x) sin(pi y)}, whose exact solution is {@code u = sin(pi x) sin(pi y)}: the steady state of
 * the heat equation with that source. Red-black SOR with the optimal relaxation factor on an {@code n x n} interior
 * grid, rows split in blocks over the ranks with one ghost row each side.
 *
 * <p><b>Acceptance verification.</b> After the main loop, the discrete residual {@code max|f + laplace_h(u)|} must be
 * below {@code 1e-8 * max|f|}, and the error against the exact solution below twice the second-order discretization
 * bound {@code h^2}. Both are properties of a correct solution, not reference numbers of one particular run. The
 * boundary values of {@code u} (columns 0 and {@code n+1}, and the outer ghost rows of the first and last rank) are
 * read by every sweep but never written, so they must still be exactly 0: with a changed one, SOR converges to the
 * solution of another problem, whose residual is as small and whose error can stay within the discretization bound.
 * Together the checks see every element of {@code u} that the solution depends on (the inner ghost rows are copies
 * of the neighbours' rows, refreshed before they are read).
 *
 * <p><b>Named data objects.</b> {@code u} (the solution with ghost rows, a candidate: it carries all the progress) and
 * {@code f} (the source, read-only: rebuilt on a restart, a plain array outside campaigns). <b>Code regions</b> of
 * the main loop: {@code redSweep}, {@code blackSweep} (each with the ghost-row exchange before it).
 */
public final class HeatKernel implements RecomputableApplication, Recomputable {
    private static final String NAME = "solver.HEAT";
    private static final List<String> REGIONS = List.of("redSweep", "blackSweep");
    private static final double RESIDUAL_FACTOR = 1e-8;
    private static final int TAG_UP = 11;
    private static final int TAG_DOWN = 12;

    private Comm comm;
    private ProblemClass problemClass;
    private int n;
    private int iterations;
    private double h;
    private double omega;
    private int firstRow;
    private int rows;
    private boolean quiet;
    /** Whether rank 0 prints progress lines: in a run ({@link #announce}), not in a campaign. */
    private boolean progress;
    private PrintStream out = System.out;

    // ---- named data objects: local rows 1..rows of u, plus ghost rows 0 and rows+1, each n+2 wide -------------
    private DoubleArray u;
    private DoubleArray f;
    /** Residual, error and boundary value, all-reduced with MAX by {@link #verify()}. */
    private final double[] reduced = new double[3];

    @Override
    public String name() {
        return NAME;
    }

    /**
     * Grid size and iteration count per class. Red-black SOR's residual shrinks by about {@code 1 - 2 pi h} per
     * sweep, so reaching {@code 1e-8} takes about 4 to 5 n sweeps: the counts leave a modest margin, as a real
     * application sizes its iteration budget.
     */
    static int[] shape(ProblemClass c) {
        return switch (c) {
            case S -> new int[] {64, 300};
            case W -> new int[] {256, 1200};
            case A -> new int[] {512, 2400};
            case B -> new int[] {1024, 4800};
        };
    }

    @Override
    public void announce() {
        progress = !quiet && comm.rank() == 0;
    }

    @Override
    public void report(RecomputingRun.Outcome outcome, double wallSeconds) {
        if (comm.rank() == 0) {
            double flops = 12.0 * n * n * iterations;
            new NpbReport("HEAT", problemClass, n + "x" + n, iterations, outcome.seconds(), comm.size(),
                    flops * 1e-6 / outcome.seconds(), "floating point", outcome.verdict(), comm.backend()).print(out);
        }
    }

    @Override
    public Recomputable prepare(Comm world, String[] args) {
        KernelOptions options = KernelOptions.parse(NAME, args);
        this.comm = world;
        this.problemClass = options.problemClass();
        this.quiet = options.quiet();
        int[] shape = shape(problemClass);
        n = shape[0];
        iterations = shape[1];
        if (comm.size() > n) {
            throw new IllegalArgumentException(NAME + ": class " + problemClass + " has " + n
                    + " rows, so it runs on 1 to " + n + " ranks (got " + comm.size() + ")");
        }
        h = 1.0 / (n + 1);
        omega = 2.0 / (1.0 + Math.sin(Math.PI * h));
        int block = n / comm.size();
        int extra = n % comm.size();
        firstRow = comm.rank() * block + Math.min(comm.rank(), extra) + 1;
        rows = block + (comm.rank() < extra ? 1 : 0);
        return this;
    }

    // ---- Recomputable ---------------------------------------------------------------------------------------------

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

    private int width() {
        return n + 2;
    }

    @Override
    public long heapBytes() {
        long bytes = 8L * (rows + 2) * width();
        return 2 * pageAligned(bytes);
    }

    @Override
    public void attach(EasyCrash easyCrash) {
        u = easyCrash.doubles("u", (rows + 2) * width());
        f = easyCrash.doubles("f", (rows + 2) * width(), ObjectRole.READ_ONLY);
    }

    @Override
    public void initialize(boolean fresh) {
        HeatOps.source(f, rows, n, firstRow, h);
        if (fresh) {
            u.fill(0.0);
        }
    }

    @Override
    public int iterations() {
        return iterations;
    }

    @Override
    public void iterate(int iteration, EasyCrash easyCrash) {
        exchangeGhostRows();
        sweep(0);
        easyCrash.endRegion(0, iteration);
        exchangeGhostRows();
        sweep(1);
        easyCrash.endRegion(1, iteration);
        if (progress && iteration % Math.max(1, iterations / 10) == 0) {
            out.printf(Locale.ROOT, "   iteration %6d%n", iteration);
        }
    }

    /** Updates the points whose global {@code (row + column)} parity is {@code color}. */
    private void sweep(int color) {
        HeatOps.sweep(u, f, rows, n, firstRow, color, h * h, omega);
    }

    /** Sends the first and last local rows to the neighbours and receives their rows into the ghost rows. */
    private void exchangeGhostRows() {
        int w = width();
        int up = comm.rank() - 1;
        int down = comm.rank() + 1;
        if (up >= 0) {
            comm.sendrecv(u.segment(), w, w, up, TAG_UP, u.segment(), 0, w, up, TAG_DOWN, ElementType.DOUBLE);
        }
        if (down < comm.size()) {
            comm.sendrecv(u.segment(), rows * w, w, down, TAG_DOWN, u.segment(), (rows + 1) * w, w, down, TAG_UP,
                    ElementType.DOUBLE);
        }
    }

    @Override
    public Verdict verify() {
        exchangeGhostRows();
        int w = width();
        double h2 = h * h;
        double residual = 0.0;
        double error = 0.0;
        for (int i = 1; i <= rows; i++) {
            double y = (firstRow + i - 1) * h;
            for (int j = 1; j <= n; j++) {
                int k = i * w + j;
                double laplacian = (u.get(k - 1) + u.get(k + 1) + u.get(k - w) + u.get(k + w) - 4 * u.get(k)) / h2;
                residual = Math.max(residual, Math.abs(f.get(k) + laplacian));
                error = Math.max(error, Math.abs(u.get(k) - Math.sin(Math.PI * j * h) * Math.sin(Math.PI * y)));
            }
        }
        reduced[0] = residual;
        reduced[1] = error;
        reduced[2] = largestBoundaryValue();
        comm.allreduce(reduced, 0, reduced, 0, reduced.length, ElementType.DOUBLE, ReduceOp.MAX);
        double fMax = 2 * Math.PI * Math.PI;
        Verdict converged = new ResidualThreshold(RESIDUAL_FACTOR * fMax).verify(reduced[0]);
        Verdict accurate = new ResidualThreshold(2 * h2).verify(reduced[1]);
        // NaN fails the comparison too.
        boolean boundaryZero = reduced[2] == 0.0;
        return new Verdict(converged.accepted() && accurate.accepted() && boundaryZero,
                "discrete " + converged.reason() + "; error vs exact " + accurate.reason()
                        + String.format(Locale.ROOT, "; boundary max|u|=%.6e%s", reduced[2],
                        boundaryZero ? "" : " is not 0"));
    }

    /** The largest {@code |u|} on this rank's part of the boundary (NaN if any is NaN: {@code Math.max} keeps it). */
    private double largestBoundaryValue() {
        int w = width();
        double largest = 0.0;
        for (int i = 1; i <= rows; i++) {
            largest = Math.max(largest, Math.max(Math.abs(u.get(i * w)), Math.abs(u.get(i * w + n + 1))));
        }
        if (comm.rank() == 0) {
            largest = Math.max(largest, largestIn(0));
        }
        if (comm.rank() == comm.size() - 1) {
            largest = Math.max(largest, largestIn(rows + 1));
        }
        return largest;
    }

    private double largestIn(int row) {
        double largest = 0.0;
        for (int j = 0; j < width(); j++) {
            largest = Math.max(largest, Math.abs(u.get(row * width() + j)));
        }
        return largest;
    }

    /** Sends the report elsewhere (tests). */
    void output(PrintStream stream) {
        this.out = stream;
    }
}
