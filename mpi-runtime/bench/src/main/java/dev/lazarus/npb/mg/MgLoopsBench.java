package dev.lazarus.npb.mg;

import dev.lazarus.bench.BenchObjects;
import dev.lazarus.easycrash.DoubleArray;
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
 * NPB MG's operators as the kernel runs them ({@link MgOps}, not copies) on class S-sized levels: the finest level
 * (32^3 plus ghosts, {@value #FINE}^3) and the next coarser one ({@value #COARSE}^3), on persistent-heap objects
 * ({@code objects=mapped}) and on plain arrays ({@code objects=plain}, EasyCrash off). The grids hold random values;
 * the operators that update a grid in place (psinv, interp) run twice per operation, with a source and its negation,
 * so the grid stays bounded over any number of calls. Keep JMH's forks (no {@code -f 0}): each fork must load only one
 * implementation.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class MgLoopsBench {
    /** Points per side of class S's finest level with its ghost layers. */
    static final int FINE = 34;
    /** Points per side of the next coarser level with its ghost layers. */
    static final int COARSE = 18;
    private static final int FINE_POINTS = FINE * FINE * FINE;
    private static final int COARSE_POINTS = COARSE * COARSE * COARSE;
    /** A point inside both grids, returned so that every benchmark consumes its result. */
    private static final int PROBE = 5 + COARSE * (7 + COARSE * 9);

    /** Which {@link DoubleArray} implementation the trial runs on: {@code mapped} or {@code plain}. */
    @Param({BenchObjects.MAPPED, BenchObjects.PLAIN})
    public String objects;

    private final double[] a = MgParameters.residualCoefficients();
    private final double[] c = MgParameters.of(ProblemClass.S).c();
    private final double[] w1 = new double[FINE];
    private final double[] w2 = new double[FINE];
    private final double[] w3 = new double[FINE];

    private BenchObjects heap;
    private DoubleArray u;
    private DoubleArray v;
    private DoubleArray r;
    private DoubleArray rNegated;
    private DoubleArray coarse;
    private DoubleArray z;
    private DoubleArray zNegated;

    @Setup(Level.Trial)
    public void setUp() {
        heap = BenchObjects.of(objects, FINE_POINTS, FINE_POINTS, FINE_POINTS, FINE_POINTS, COARSE_POINTS,
                COARSE_POINTS, COARSE_POINTS);
        SplittableRandom random = new SplittableRandom(271828183L);
        u = filled("u", FINE_POINTS, random);
        v = filled("v", FINE_POINTS, random);
        r = filled("r", FINE_POINTS, random);
        rNegated = negation("rNegated", r);
        coarse = filled("coarse", COARSE_POINTS, random);
        z = filled("z", COARSE_POINTS, random);
        zNegated = negation("zNegated", z);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        heap.close();
    }

    /** NPB's resid on the finest level: r = v - A u. */
    @Benchmark
    public double resid() {
        MgOps.resid(u, 0, v, 0, r, 0, FINE, FINE, FINE, a, w1, w2);
        return r.get(PROBE);
    }

    /** NPB's psinv on the finest level, twice: u += C r, then u += C (-r). */
    @Benchmark
    public double psinv() {
        MgOps.psinv(r, 0, u, 0, FINE, FINE, FINE, c, w1, w2);
        MgOps.psinv(rNegated, 0, u, 0, FINE, FINE, FINE, c, w1, w2);
        return u.get(PROBE);
    }

    /** NPB's rprj3: the finest level's r restricted to the coarser level. */
    @Benchmark
    public double rprj3() {
        MgOps.rprj3(r, 0, FINE, FINE, FINE, coarse, 0, COARSE, COARSE, COARSE, w1, w2);
        return coarse.get(PROBE);
    }

    /** NPB's interp from the coarser level into the finest, twice: u += I z, then u += I (-z). */
    @Benchmark
    public double interp() {
        MgOps.interp(z, 0, COARSE, COARSE, 0, u, 0, FINE, FINE, FINE, 0, w1, w2, w3);
        MgOps.interp(zNegated, 0, COARSE, COARSE, 0, u, 0, FINE, FINE, FINE, 0, w1, w2, w3);
        return u.get(PROBE);
    }

    private DoubleArray filled(String name, int length, SplittableRandom random) {
        DoubleArray array = heap.doubles(name, length);
        array.copyFrom(random.doubles(length).toArray());
        return array;
    }

    private DoubleArray negation(String name, DoubleArray source) {
        DoubleArray array = heap.doubles(name, source.length());
        double[] values = source.toArray();
        for (int i = 0; i < values.length; i++) {
            values[i] = -values[i];
        }
        array.copyFrom(values);
        return array;
    }
}
