package dev.lazarus.npb.ft;

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
 * NPB FT's loops as the kernel runs them ({@link SlabFft}, {@link FtKernel#evolve}, not copies) on a class S grid
 * (64^3 complex, one rank), on persistent-heap objects ({@code objects=mapped}) and on plain arrays
 * ({@code objects=plain}, EasyCrash off): the FFTs along x, y and z (the lines copied out of the grid, the Stockham
 * butterfly passes, the lines copied back), the two local transposes, and evolve.
 *
 * <p>The FFTs are not normalized, so each one multiplies the grid by up to 64: they start every operation from the
 * same random grid, restored before it (untimed, {@link Fresh}). Evolve runs twice per operation, with the evolution
 * factors and their inverses, which keeps the spectrum bounded (one factor alone decays it into denormals). Keep
 * JMH's forks (no {@code -f 0}): each fork must load only one implementation.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class FtLoopsBench {
    /** Points per side of the class S grid. */
    static final int N = 64;
    private static final int PROBE = 3 + 2 * N * (5 + N * 7);

    /** Which {@link DoubleArray} implementation the trial runs on: {@code mapped} or {@code plain}. */
    @Param({BenchObjects.MAPPED, BenchObjects.PLAIN})
    public String objects;

    private final SlabFft fft = new SlabFft(N, N, N, 1, (send, recv, count) -> {
        throw new IllegalStateException("one rank: no all-to-all");
    });
    private BenchObjects heap;
    /** The random grid every FFT starts from. */
    private double[] initial;
    private DoubleArray grid;
    private DoubleArray other;
    private DoubleArray twiddle;
    private DoubleArray inverseTwiddle;

    /** Restores the grid before each FFT operation (JMH runs it untimed, for the benchmarks that take it). */
    @State(Scope.Thread)
    public static class Fresh {
        @Setup(Level.Invocation)
        public void restore(FtLoopsBench bench) {
            bench.grid.copyFrom(bench.initial);
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        int doubles = fft.localDoubles();
        heap = BenchObjects.of(objects, doubles, doubles, doubles / 2, doubles / 2);
        initial = new SplittableRandom(314159265L).doubles(doubles).toArray();
        grid = heap.doubles("grid", doubles);
        grid.copyFrom(initial);
        other = heap.doubles("other", doubles);
        twiddle = heap.doubles("twiddle", doubles / 2);
        FtKernel.computeTwiddle(twiddle, FtProblem.of(ProblemClass.S), 0, 1);
        double[] inverse = twiddle.toArray();
        for (int i = 0; i < inverse.length; i++) {
            inverse[i] = 1.0 / inverse[i];
        }
        inverseTwiddle = heap.doubles("inverseTwiddle", doubles / 2);
        inverseTwiddle.copyFrom(inverse);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        heap.close();
    }

    /** FFTs along x: contiguous lines, 16 neighbouring y-rows a block, copied element by element. */
    @Benchmark
    public double fftX(Fresh fresh) {
        fft.fftX(grid, 1);
        return grid.get(PROBE);
    }

    /** FFTs along y: lines of stride nx, blocks of 16 neighbouring x-columns copied by bulk copies of 32 doubles. */
    @Benchmark
    public double fftY(Fresh fresh) {
        fft.fftY(grid, 1);
        return grid.get(PROBE);
    }

    /** FFTs along z of the zxy layout: contiguous lines, as fftX. */
    @Benchmark
    public double fftZ(Fresh fresh) {
        fft.fftZ(grid, 1);
        return grid.get(PROBE);
    }

    /** The local transpose of the forward FFT, xyz to zxy (one rank: no all-to-all). */
    @Benchmark
    public double transposeXyToZ() {
        fft.transposeXyToZ(grid, other);
        return other.get(PROBE);
    }

    /** The local transpose of the inverse FFT, zxy to xyz. */
    @Benchmark
    public double transposeZToXy() {
        fft.transposeZToXy(grid, other);
        return other.get(PROBE);
    }

    /** FT's evolve twice: {@code u0 *= twiddle; u1 = u0}, then the same with the inverse factors. */
    @Benchmark
    public double evolve() {
        FtKernel.evolve(grid, other, twiddle);
        FtKernel.evolve(grid, other, inverseTwiddle);
        return grid.get(PROBE);
    }
}
