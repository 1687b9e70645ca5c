package dev.lazarus.bench;

import dev.lazarus.easycrash.DataObject;
import dev.lazarus.easycrash.DoubleArray;
import dev.lazarus.easycrash.ObjectRole;
import dev.lazarus.easycrash.PersistentHeap;
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

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The cost of EasyCrash's persistence operation, {@link PersistentHeap#persist}, per cache line: the write-back cost
 * {@code l} of the paper's §5.3 model, with whatever {@link PersistentHeap#persistenceMechanism()} the heap uses
 * (libpmem's {@code pmem_flush}, CLWB where the CPU has it, on /dev/shm).
 *
 * <p>{@link #dirtyPersist} writes every element of the object and then persists it; {@link #dirty} only writes, so
 * {@code (dirtyPersist - dirty) / (bytes / 64)} is the cost of writing back one dirty line. {@link #cleanPersist}
 * persists an object whose lines are already written back. Each persist also writes and drains the heap's in-flight
 * marker twice, a fixed cost included in all persist figures.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class PersistCost {
    /** Object size in bytes: 64 KiB, 1 MiB, 16 MiB. */
    @Param({"65536", "1048576", "16777216"})
    public int bytes;

    private BenchHeap nvm;
    private DoubleArray object;
    private List<DataObject> objects;
    private double value;

    @Setup(Level.Trial)
    public void setUp() {
        nvm = BenchHeap.open(bytes);
        object = nvm.heap.doubles("object", bytes / Double.BYTES, ObjectRole.CANDIDATE);
        objects = List.of(object);
        nvm.heap.persist(0, objects);
        System.out.println("persistence: " + nvm.heap.persistenceMechanism());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        nvm.close();
    }

    /** Writes every element, dirtying every cache line of the object: the baseline of {@link #dirtyPersist}. */
    @Benchmark
    public void dirty() {
        DoubleArray object = this.object;
        double v = value++;
        for (int i = 0, n = object.length(); i < n; i++) {
            object.set(i, v);
        }
    }

    /** Dirties every line, then persists the object. */
    @Benchmark
    public void dirtyPersist() {
        dirty();
        nvm.heap.persist(0, objects);
    }

    /** Persists the object again without writing it: every line is already clean. */
    @Benchmark
    public void cleanPersist() {
        nvm.heap.persist(0, objects);
    }
}
