package dev.lazarus.npb.heat;

import dev.lazarus.bench.BenchObjects;
import dev.lazarus.easycrash.DoubleArray;
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

import java.util.concurrent.TimeUnit;

/**
 * solver.HEAT's red-black SOR sweep ({@link HeatOps#sweep}, the kernel's own code) on one rank's whole grid of a
 * problem class (S by default: 64 x 64 interior points with their boundary; {@code -p problemClass=A}: 512 x 512).
 * {@code objects} chooses the implementation of the data objects: as a rank places them ({@code mapped}: {@code u} in
 * a persistent heap, the read-only {@code f} a plain array) or all plain Java arrays ({@code plain}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class HeatLoopsBench {
    @Param({BenchObjects.MAPPED, BenchObjects.PLAIN})
    public String objects;

    /** The problem class of the grid: S by default, {@code -p problemClass=A} for class A's. */
    @Param({"S"})
    public String problemClass;

    private int n;
    private int width;

    private BenchObjects store;
    /** The solution with its boundary; SOR converges, so it stays bounded however many sweeps run. */
    private DoubleArray u;
    private DoubleArray f;
    private double h2;
    private double omega;

    @Setup(Level.Trial)
    public void setUp() {
        n = HeatKernel.shape(ProblemClass.valueOf(problemClass))[0];
        width = n + 2;
        double h = 1.0 / (n + 1);
        h2 = h * h;
        omega = 2.0 / (1.0 + Math.sin(Math.PI * h));
        store = BenchObjects.open(objects, 8L * width * width, 8L * width * width);
        u = store.doubles("u", width * width, ObjectRole.CANDIDATE);
        f = store.doubles("f", width * width, ObjectRole.READ_ONLY);
        HeatOps.source(f, n, n, 1, h);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        store.close();
    }

    /** One iteration of the kernel's main loop: the red sweep, then the black one; returns the centre value. */
    @Benchmark
    public double sweep() {
        HeatOps.sweep(u, f, n, n, 1, 0, h2, omega);
        HeatOps.sweep(u, f, n, n, 1, 1, h2, omega);
        return u.get(width * width / 2);
    }
}
