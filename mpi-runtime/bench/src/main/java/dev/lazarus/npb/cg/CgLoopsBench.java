package dev.lazarus.npb.cg;

import dev.lazarus.bench.BenchObjects;
import dev.lazarus.easycrash.DoubleArray;
import dev.lazarus.easycrash.IntArray;
import dev.lazarus.easycrash.ObjectRole;
import dev.lazarus.npb.common.ProblemClass;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * CG's inner loops ({@link CgOps}, the kernel's own code) on NPB's matrix from {@link CgMatrix#makea}, one rank:
 * class S by default (1400 rows, about 78,000 nonzeros), or class A (14,000 rows, about 1.85 million).
 * {@code objects} chooses the implementation of the data objects: as a rank places them ({@code mapped}: the vectors
 * in a persistent heap, the read-only matrix in plain arrays) or all plain Java arrays ({@code plain}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class CgLoopsBench {
    @Param({BenchObjects.MAPPED, BenchObjects.PLAIN})
    public String objects;

    /** NPB's problem class of the matrix and vectors: S by default, {@code -p problemClass=A} for class A's. */
    @Param({"S"})
    public String problemClass;

    private BenchObjects store;
    private int na;
    private IntArray rowstr;
    private IntArray colidx;
    private DoubleArray a;
    private DoubleArray p;
    private DoubleArray q;
    private DoubleArray z;
    private DoubleArray r;

    /**
     * The step of the z/r update. Its sign flips at every call, so z and r go back and forth instead of drifting;
     * a field, so the JIT cannot fold it.
     */
    private double alpha = 0.25;
    /** The direction update's {@code beta}: below 1, so p settles at {@code r / (1 - beta)}. A field, as alpha. */
    private double beta = 0.5;

    @Setup(Level.Trial)
    public void setUp() {
        CgParameters parameters = CgParameters.of(ProblemClass.valueOf(problemClass));
        na = parameters.na();
        CgMatrix matrix = CgMatrix.makea(na, parameters.nonzer(), CgParameters.RCOND, parameters.shift(), 0, na);
        SplittableRandom random = new SplittableRandom(314159265L);
        store = BenchObjects.open(objects, 4L * matrix.rowstr.length, 4L * matrix.colidx.length,
                8L * matrix.a.length, 8L * na, 8L * na, 8L * na, 8L * na);
        rowstr = store.ints("rowstr", matrix.rowstr, ObjectRole.READ_ONLY);
        colidx = store.ints("colidx", matrix.colidx, ObjectRole.READ_ONLY);
        a = store.doubles("a", matrix.a, ObjectRole.READ_ONLY);
        p = store.doubles("p", random.doubles(na).toArray(), ObjectRole.CANDIDATE);
        q = store.doubles("q", random.doubles(na).toArray(), ObjectRole.CANDIDATE);
        z = store.doubles("z", random.doubles(na).toArray(), ObjectRole.CANDIDATE);
        r = store.doubles("r", random.doubles(na).toArray(), ObjectRole.CANDIDATE);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        store.close();
    }

    /**
     * {@code q = A p}, CG's sparse matrix-vector product ({@link CgOps#multiply}, which gathers from p where it lives,
     * heap or array); returns an element of q.
     */
    @Benchmark
    public double spmv() {
        CgOps.multiply(rowstr, colidx, a, p, q, na, 0);
        return q.get(na - 1);
    }

    /** {@code z += alpha p; r -= alpha q} ({@link CgOps#updateSolutionAndResidual}); returns an element of r. */
    @Benchmark
    public double daxpy() {
        double step = alpha;
        alpha = -step;
        CgOps.updateSolutionAndResidual(z, r, p, q, step, 0, na);
        return r.get(na - 1);
    }

    /** {@code p = r + beta p} ({@link CgOps#updateDirection}); returns an element of p. */
    @Benchmark
    public double direction() {
        CgOps.updateDirection(p, r, beta, 0, na);
        return p.get(na - 1);
    }

    /** {@code p . q} ({@link CgOps#localDot}). */
    @Benchmark
    public double dot() {
        return CgOps.localDot(p, q, 0, na);
    }
}
