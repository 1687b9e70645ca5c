package dev.lazarus.npb.mg;

import dev.lazarus.easycrash.DoubleArray;
import dev.lazarus.easycrash.trace.Tracing;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Element access for the stencil loops: persistent-heap doubles addressed by <em>byte</em> offset in the object's
 * memory segment, which the caller reads once ({@link DoubleArray#segment()}) before its loops.
 *
 * <p>Why not {@link DoubleArray#get}/{@link DoubleArray#set} directly: with an {@code int} element index such as
 * {@code base + i}, C2 cannot prove the index arithmetic free of overflow, so it keeps a widening and a bounds check
 * per access and the loops run about 1.6 times slower than on {@code double[]} (resid on a 258^3 grid: 116 ms against
 * 70 ms on arrays). With {@code long} byte offsets of the form {@code base + 8L * i} the checks are hoisted and the
 * same loop takes 58 ms. In crash-test campaigns ({@link Tracing#ENABLED}, a constant the JIT folds) every access
 * still goes through the {@link DoubleArray} accessors, so the tracer sees exactly the same loads and stores.
 */
final class HeapAccess {
    private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE;

    private HeapAccess() {
    }

    /** The element at byte offset {@code at} of {@code array}, whose segment is {@code memory}. */
    static double load(DoubleArray array, MemorySegment memory, long at) {
        return Tracing.ENABLED ? array.get((int) (at >>> 3)) : memory.get(DOUBLE, at);
    }

    /** Stores {@code value} at byte offset {@code at} of {@code array}, whose segment is {@code memory}. */
    static void store(DoubleArray array, MemorySegment memory, long at, double value) {
        if (Tracing.ENABLED) {
            array.set((int) (at >>> 3), value);
        } else {
            memory.set(DOUBLE, at, value);
        }
    }
}
