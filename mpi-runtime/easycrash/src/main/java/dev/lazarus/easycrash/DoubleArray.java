package dev.lazarus.easycrash;

import dev.lazarus.easycrash.trace.AccessTracer;
import dev.lazarus.mpi.ElementType;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A {@code double} array of an application: in the persistent heap, or a plain Java array when EasyCrash is off. Write
 * loops with {@link #get} and {@link #set} as over a {@code double[]}, and copy ranges with the bulk methods, which are
 * a single {@code memcpy} outside campaigns and element by element (so the tracer sees every access) inside them.
 *
 * <p><b>Fast loops.</b> Write loops as over a {@code double[]}: on the persistent heap {@link #get(int)} and
 * {@link #set(int, double)} check the index as an array access does and then load or store at an address, so C2
 * compiles them to the array loop's code, with the bounds check hoisted out of the loop when the index is linear in
 * the loop counter ({@code a.get(row + i)}, {@code a.get(2 * i + 1)}); the {@code (long base, int i, int stride)}
 * accessors, element {@code base + stride * i}, compile the same way. One difference remains: C2 on JDK 25 does not
 * vectorize a loop that writes one heap object and reads another (it cannot prove that two native address ranges do
 * not overlap, a check JDK 26 adds), so such a streaming loop runs as the array loop would with vectorization off.
 * The bulk operations {@link #addScaled}, {@link #scaleAndAdd} and {@link #scaleComplex} are vectorized on the heap
 * and give the element loop's results to the bit. A gather over heap objects ({@code a.get(k) * x[col.get(k)]}) keeps
 * a register per object and runs slower than over arrays; data that only initialization writes, such as a sparse
 * matrix, should be attached as {@link ObjectRole#READ_ONLY}, which a rank keeps in a plain array.
 */
public abstract sealed class DoubleArray extends DataObject permits MappedDoubleArray, PlainDoubleArray {

    DoubleArray(String name, ObjectRole role, MemorySegment segment, long heapOffset, AccessTracer tracer, int length) {
        super(name, role, segment, heapOffset, tracer, length);
    }

    /** A plain array of {@code length} zeros in the Java heap: the object an application gets with EasyCrash off. */
    public static DoubleArray plain(String name, int length, ObjectRole role) {
        return new PlainDoubleArray(name, role, new double[length]);
    }

    /** The element at {@code index}; {@link IndexOutOfBoundsException} outside {@code [0, length)}. */
    public abstract double get(int index);

    /** Stores {@code value} at {@code index}; {@link IndexOutOfBoundsException} outside {@code [0, length)}. */
    public abstract void set(int index, double value);

    /** Element {@code base + i}, the loop accessor (see the class comment); otherwise as {@link #get(int)}. */
    public final double get(long base, int i) {
        return get(base, i, 1);
    }

    /** Stores {@code value} at element {@code base + i}, the loop accessor (see the class comment). */
    public final void set(long base, int i, double value) {
        set(base, i, 1, value);
    }

    /**
     * Element {@code base + stride * i}, the strided loop accessor (see the class comment; {@code stride} should be a
     * constant); {@link IndexOutOfBoundsException} unless that lies in {@code [0, length)}. A plain array, like a
     * loop over a {@code double[]}, computes {@code stride * i} and the sum in {@code int} arithmetic (only
     * {@code base} must be an {@code int}), on either implementation, so for arguments whose sum overflows the
     * {@code int} range it may wrap onto another element, as an array index does (never outside the object).
     */
    public abstract double get(long base, int i, int stride);

    /** Stores {@code value} at element {@code base + stride * i}, the strided loop accessor. */
    public abstract void set(long base, int i, int stride, double value);

    /** The error of a loop accessor whose {@code base} is not an {@code int}: a cast would wrap it onto an element. */
    final IndexOutOfBoundsException baseOutOfRange(long base) {
        return new IndexOutOfBoundsException("base=" + base + " is outside the int range of object " + name()
                + " (length=" + length + ")");
    }

    /**
     * {@code this[j] = this[j] + alpha * x[j]} for {@code j} in {@code [from, to)}, BLAS's daxpy: the element loop's
     * results, vectorized on the persistent heap (see the class comment). {@code x} may be this object.
     *
     * @throws IndexOutOfBoundsException unless {@code [from, to)} lies within both objects
     */
    public abstract void addScaled(double alpha, DoubleArray x, int from, int to);

    /**
     * {@code this[j] = alpha * x[j]} for {@code j} in {@code [from, to)} (CG's normalization of x), vectorized as
     * {@link #addScaled}. {@code x} may be this object.
     *
     * @throws IndexOutOfBoundsException unless {@code [from, to)} lies within both objects
     */
    public abstract void setScaled(double alpha, DoubleArray x, int from, int to);

    /**
     * {@code this[j] = x[j] + beta * this[j]} for {@code j} in {@code [from, to)} (CG's direction update), vectorized
     * as {@link #addScaled}.
     *
     * @throws IndexOutOfBoundsException unless {@code [from, to)} lies within both objects
     */
    public abstract void scaleAndAdd(double beta, DoubleArray x, int from, int to);

    /**
     * Multiplies complex numbers stored as pairs, {@code (this[2i], this[2i+1])}, by the real {@code factors[i]} for
     * {@code i} in {@code [0, factors.length())}, and stores each product into {@code copy} at the same place as well
     * (FT's evolve). The element loop's results, vectorized as {@link #addScaled}.
     *
     * @throws IndexOutOfBoundsException unless this object and {@code copy} hold {@code 2 * factors.length()} elements
     */
    public abstract void scaleComplex(DoubleArray factors, DoubleArray copy);

    /** Checks that {@code [from, to)} lies within this object and {@code x}, for the bulk operations. */
    final void checkBulkRange(DoubleArray x, int from, int to) {
        Objects.checkFromToIndex(from, to, length);
        Objects.checkFromToIndex(from, to, x.length);
    }

    /** Checks that {@code this} and {@code copy} hold a pair per factor, for {@link #scaleComplex}. */
    final void checkComplexScaling(DoubleArray factors, DoubleArray copy) {
        DataObject.checkRange(0, 2 * factors.length, length);
        DataObject.checkRange(0, 2 * factors.length, copy.length);
    }

    /** Sets every element to {@code value}. */
    public abstract void fill(double value);

    /** Copies {@code source[0 .. length)} in. */
    public final void copyFrom(double[] source) {
        copyFrom(source, 0, 0, length);
    }

    /** Copies {@code count} elements of {@code source} from {@code sourceIndex} into this array at {@code at}. */
    public abstract void copyFrom(double[] source, int sourceIndex, int at, int count);

    /** Copies {@code count} elements of this array from {@code at} into {@code target} at {@code targetIndex}. */
    public abstract void copyTo(int at, double[] target, int targetIndex, int count);

    /**
     * Copies {@code count} elements of this array from {@code at} into {@code target} at {@code targetAt}, as
     * {@link System#arraycopy} does (overlapping ranges of one array are copied as if through a temporary).
     */
    public abstract void copyTo(int at, DoubleArray target, int targetAt, int count);

    /** Copies the contents out into a new array. */
    public final double[] toArray() {
        double[] copy = new double[length];
        copyTo(0, copy, 0, length);
        return copy;
    }

    @Override
    public final ElementType elementType() {
        return ElementType.DOUBLE;
    }
}
