package dev.lazarus.npb.testing;

import dev.lazarus.easycrash.DoubleArray;
import dev.lazarus.easycrash.ObjectRole;
import dev.lazarus.easycrash.PersistentHeap;
import dev.lazarus.easycrash.RecoveryState;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A private persistent heap for unit tests of kernel operators that work on {@link DoubleArray} objects (MG's grid
 * operators, FT's FFT and set-up): made from plain arrays, read back with {@link DoubleArray#toArray()}.
 * Single-threaded: allocate every object before handing them to thread ranks.
 */
public final class TestHeap implements AutoCloseable {
    /** Sparse file: only the pages a test touches take memory. */
    private static final long CAPACITY = 256L << 20;

    private final PersistentHeap heap;
    private int objects;

    private TestHeap(PersistentHeap heap) {
        this.heap = heap;
    }

    /** A fresh heap in {@code directory}. */
    public static TestHeap open(Path directory) throws IOException {
        PersistentHeap.Config config = new PersistentHeap.Config(directory, "unit", 0, 1, CAPACITY, "kernel-test",
                null);
        return new TestHeap(PersistentHeap.openFresh(config, RecoveryState.fresh("unit test")));
    }

    /** A new object of {@code length} zeros. */
    public DoubleArray zeros(int length) {
        return heap.doubles("t" + objects++, length, ObjectRole.REINITIALIZED);
    }

    /** A new object holding a copy of {@code values}. */
    public DoubleArray of(double[] values) {
        DoubleArray array = zeros(values.length);
        array.copyFrom(values);
        return array;
    }

    /** A new object holding a copy of {@code source}. */
    public DoubleArray copy(DoubleArray source) {
        return of(source.toArray());
    }

    @Override
    public void close() throws IOException {
        heap.release();
    }
}
