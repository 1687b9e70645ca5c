package dev.lazarus.npb.ft;

import dev.lazarus.easycrash.DoubleArray;
import dev.lazarus.easycrash.trace.Tracing;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Element access and bulk copies for FT's loops over persistent-heap doubles: addressed by <em>byte</em> offset in the
 * object's memory segment, which the caller reads once ({@link DoubleArray#segment()}) before its loops.
 *
 * <p>Why not {@link DoubleArray#get}/{@link DoubleArray#set} directly: with an {@code int} element index such as
 * {@code base + i}, C2 cannot prove the index arithmetic free of overflow, so it keeps a widening and a bounds check
 * per access, and loops run about 1.6 times slower than on {@code double[]}; with {@code long} byte offsets of the
 * form {@code base + 8L * i} the checks are hoisted. Bulk copies use {@link MemorySegment#copy}, as the array code
 * used {@link System#arraycopy} (for FT's 32-double blocks of y-lines it beats an element loop, 73 ms against 92 ms
 * per fftY of class A). In crash-test campaigns ({@link Tracing#ENABLED}, a constant the JIT folds) every
 * element still goes through the {@link DoubleArray} accessors, so the tracer sees the same loads and stores.
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

    /** Copies {@code count} elements of {@code from} starting at element {@code at} to {@code to[index..]}. */
    static void copyOut(DoubleArray from, int at, double[] to, int index, int count) {
        if (Tracing.ENABLED) {
            for (int i = 0; i < count; i++) {
                to[index + i] = from.get(at + i);
            }
        } else {
            MemorySegment.copy(from.segment(), DOUBLE, 8L * at, to, index, count);
        }
    }

    /** Copies {@code count} elements of {@code from[index..]} into {@code to} starting at element {@code at}. */
    static void copyIn(double[] from, int index, DoubleArray to, int at, int count) {
        if (Tracing.ENABLED) {
            for (int i = 0; i < count; i++) {
                to.set(at + i, from[index + i]);
            }
        } else {
            MemorySegment.copy(from, index, to.segment(), DOUBLE, 8L * at, count);
        }
    }

    /** Copies {@code count} elements from element {@code fromAt} of {@code from} to {@code toAt} of {@code to}. */
    static void copy(DoubleArray from, int fromAt, DoubleArray to, int toAt, int count) {
        if (Tracing.ENABLED) {
            for (int i = 0; i < count; i++) {
                to.set(toAt + i, from.get(fromAt + i));
            }
        } else {
            MemorySegment.copy(from.segment(), 8L * fromAt, to.segment(), 8L * toAt, 8L * count);
        }
    }
}
