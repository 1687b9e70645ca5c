package dev.lazarus.npb.ep;

import dev.lazarus.bench.BenchObjects;
import dev.lazarus.easycrash.DoubleArray;
import dev.lazarus.easycrash.ObjectRole;
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
 * EP's batch ({@link EpOps}, the kernel's own code) on NPB's first batch: its {@code 2 * NK} = 131,072 uniforms and
 * their 65,536 pairs (the batch size is the same for every class). {@code objects} chooses the implementation of the
 * data objects: a persistent heap ({@code mapped}) or plain Java arrays ({@code plain}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class EpLoopsBench {
    private static final int COUNT = 2 * EpKernel.NK;

    @Param({BenchObjects.MAPPED, BenchObjects.PLAIN})
    public String objects;

    private BenchObjects store;
    /** The batch's uniforms. */
    private DoubleArray x;
    /** Two tallies slots: the batch is tallied from slot 0 (zeros) into slot 1. */
    private DoubleArray tallies;
    /** Scratch for the annulus counts. */
    private final double[] annuli = new double[EpKernel.NQ];
    /** The generator state the batch starts from; a field, so the JIT cannot fold it. */
    private double seed = EpKernel.S;

    @Setup(Level.Trial)
    public void setUp() {
        store = BenchObjects.open(objects, 8L * COUNT, 8L * 2 * EpKernel.TALLY);
        x = store.doubles("x", COUNT, ObjectRole.TEMPORARY);
        tallies = store.doubles("tallies", 2 * EpKernel.TALLY, ObjectRole.CANDIDATE);
        EpOps.generateUniforms(x, seed, EpKernel.A, COUNT);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        store.close();
    }

    /** The batch's uniforms ({@link EpOps#generateUniforms}, NPB's {@code vranlc}); returns the last one. */
    @Benchmark
    public double generateUniforms() {
        EpOps.generateUniforms(x, seed, EpKernel.A, COUNT);
        return x.get(COUNT - 1);
    }

    /**
     * The batch's Gaussian pairs, annulus counts and sums ({@link EpOps#tallyGaussianPairs}), from the zero slot 0
     * into slot 1 each time, so that they stay bounded; returns the sum of |X|.
     */
    @Benchmark
    public double tallyGaussianPairs() {
        EpOps.tallyGaussianPairs(x, tallies, 0, EpKernel.TALLY, annuli, COUNT);
        return tallies.get(EpKernel.TALLY + EpKernel.SX);
    }
}
