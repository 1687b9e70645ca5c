package dev.lazarus.bench;

import dev.lazarus.easycrash.DoubleArray;
import dev.lazarus.easycrash.ObjectRole;
import dev.lazarus.easycrash.trace.Tracing;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * What the tracer hook in {@link DoubleArray#get}/{@link DoubleArray#set} costs when tracing is off (production): the
 * same {@code y[i] += alpha x[i]} loop through the accessors and directly on the objects' memory segments with
 * {@link ValueLayout#JAVA_DOUBLE} {@code getAtIndex}/{@code setAtIndex}. Both read and write the same heap memory.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class TracingOff {
    /** 2 x 64 KiB: stays in L2, so the loop, not memory, is measured. */
    static final int LENGTH = 8192;

    private BenchHeap nvm;
    private DoubleArray x;
    private DoubleArray y;
    private MemorySegment xs;
    private MemorySegment ys;
    private double alpha = 1.0e-12;

    @Setup(Level.Trial)
    public void setUp() {
        if (Tracing.ENABLED) {
            throw new IllegalStateException("run without -D" + Tracing.PROPERTY + "=true: this measures tracing off");
        }
        nvm = BenchHeap.open(8L * LENGTH, 8L * LENGTH);
        x = nvm.heap.doubles("x", LENGTH, ObjectRole.CANDIDATE);
        y = nvm.heap.doubles("y", LENGTH, ObjectRole.CANDIDATE);
        SplittableRandom random = new SplittableRandom(161803398L);
        x.copyFrom(random.doubles(LENGTH).toArray());
        y.copyFrom(random.doubles(LENGTH).toArray());
        xs = x.segment();
        ys = y.segment();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        nvm.close();
    }

    /** Through {@link DoubleArray#get}/{@link DoubleArray#set}, with their {@code if (Tracing.ENABLED)} hooks. */
    @Benchmark
    public void doubleArray() {
        DoubleArray x = this.x;
        DoubleArray y = this.y;
        double alpha = this.alpha;
        for (int i = 0; i < LENGTH; i++) {
            y.set(i, y.get(i) + alpha * x.get(i));
        }
    }

    /** The same loop on the raw segments. */
    @Benchmark
    public void rawSegment() {
        MemorySegment x = xs;
        MemorySegment y = ys;
        double alpha = this.alpha;
        for (int i = 0; i < LENGTH; i++) {
            y.setAtIndex(ValueLayout.JAVA_DOUBLE, i,
                    y.getAtIndex(ValueLayout.JAVA_DOUBLE, i) + alpha * x.getAtIndex(ValueLayout.JAVA_DOUBLE, i));
        }
    }
}
