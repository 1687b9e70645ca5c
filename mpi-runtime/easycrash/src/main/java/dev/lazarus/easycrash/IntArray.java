package dev.lazarus.easycrash;

import dev.lazarus.easycrash.trace.AccessTracer;
import dev.lazarus.mpi.ElementType;

import java.lang.foreign.MemorySegment;

/**
 * A {@code int} array of an application: in the persistent heap, or a plain Java array when EasyCrash is off. Write
 * loops with {@link #get} and {@link #set} as over a {@code int[]}, and copy ranges with the bulk methods, which are
 * a single {@code memcpy} outside campaigns and element by element (so the tracer sees every access) inside them.
 */
public abstract sealed class IntArray extends DataObject permits MappedIntArray, PlainIntArray {

    IntArray(String name, ObjectRole role, MemorySegment segment, long heapOffset, AccessTracer tracer, int length) {
        super(name, role, segment, heapOffset, tracer, length);
    }

    /** A plain array of {@code length} zeros in the Java heap: the object an application gets with EasyCrash off. */
    public static IntArray plain(String name, int length, ObjectRole role) {
        return new PlainIntArray(name, role, new int[length]);
    }

    /** The element at {@code index}; {@link IndexOutOfBoundsException} outside {@code [0, length)}. */
    public abstract int get(int index);

    /** Stores {@code value} at {@code index}; {@link IndexOutOfBoundsException} outside {@code [0, length)}. */
    public abstract void set(int index, int value);

    /** Sets every element to {@code value}. */
    public abstract void fill(int value);

    /** Copies {@code source[0 .. length)} in. */
    public final void copyFrom(int[] source) {
        copyFrom(source, 0, 0, length);
    }

    /** Copies {@code count} elements of {@code source} from {@code sourceIndex} into this array at {@code at}. */
    public abstract void copyFrom(int[] source, int sourceIndex, int at, int count);

    /** Copies {@code count} elements of this array from {@code at} into {@code target} at {@code targetIndex}. */
    public abstract void copyTo(int at, int[] target, int targetIndex, int count);

    /**
     * Copies {@code count} elements of this array from {@code at} into {@code target} at {@code targetAt}, as
     * {@link System#arraycopy} does (overlapping ranges of one array are copied as if through a temporary).
     */
    public abstract void copyTo(int at, IntArray target, int targetAt, int count);

    /** Copies the contents out into a new array. */
    public final int[] toArray() {
        int[] copy = new int[length];
        copyTo(0, copy, 0, length);
        return copy;
    }

    @Override
    public final ElementType elementType() {
        return ElementType.INT;
    }
}
