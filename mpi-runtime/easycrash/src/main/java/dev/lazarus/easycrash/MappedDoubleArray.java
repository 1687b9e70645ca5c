package dev.lazarus.easycrash;

import dev.lazarus.easycrash.trace.AccessTracer;
import dev.lazarus.easycrash.trace.Tracing;
import dev.lazarus.mpi.memory.RawMemory;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A {@code double} array in the persistent heap. Accessors compile to an array-style bounds check and a plain load or
 * store in production ({@link RawMemory} says why not through the segment).
 */
sealed class MappedDoubleArray extends DoubleArray permits MappedDoubleArray.Large {
    /** The first element's address in the mapping, for {@link RawMemory}. */
    private final long address;

    /**
     * The most elements an object may have for {@link #offsetOf}'s check (2 GiB of them). Checking the index against
     * {@code length & MAX_CHECKED_LENGTH}, which is the length, tells C2 that the byte offset fits in an {@code int},
     * and only then does it fold {@code address + offset} into the load's addressing (a base register, the index
     * register scaled, a displacement), as for an array element: its rewrite of a raw address sum into a pointer plus
     * an offset requires an offset of {@code int} range. Without it every access computed a pointer of its own
     * ({@code movsxd}, {@code lea}) and the extra registers pushed loop values onto the stack: HeatLoopsBench.sweep
     * compiled to 78 instructions per four points against 58 on {@code double[]}, and to 67 with the mask (class S
     * heap / plain 1.12 -> 1.01); IsLoopsBench.groupByBucket's scatter 18 instructions per key, 13 with the mask, 12.5
     * on {@code int[]} (1.20 -> 0.99 to 1.06). Larger objects are {@link Large}s, checked against the length itself.
     */
    static final int MAX_CHECKED_LENGTH = Integer.MAX_VALUE >>> 3;

    /** A heap object over {@code segment}: a {@link Large} one above {@link #MAX_CHECKED_LENGTH} elements. */
    static MappedDoubleArray of(String name, ObjectRole role, MemorySegment segment, long heapOffset,
                                AccessTracer tracer) {
        return segment.byteSize() / 8 > MAX_CHECKED_LENGTH ? new Large(name, role, segment, heapOffset, tracer)
                : new MappedDoubleArray(name, role, segment, heapOffset, tracer);
    }

    private MappedDoubleArray(String name, ObjectRole role, MemorySegment segment, long heapOffset,
                              AccessTracer tracer) {
        super(name, role, segment, heapOffset, tracer, Math.toIntExact(segment.byteSize() / 8));
        this.address = segment.address();
    }

    /** The byte offset of element {@code index}; {@link IndexOutOfBoundsException} outside {@code [0, length)}. */
    long offsetOf(int index) {
        return (long) Objects.checkIndex(index, length & MAX_CHECKED_LENGTH) << 3;
    }

    @Override
    public double get(int index) {
        if (Tracing.ENABLED && tracer != null) {
            tracer.load(heapOffset + ((long) index << 3), 8);
        }
        return RawMemory.getDouble(address + offsetOf(index));
    }

    @Override
    public void set(int index, double value) {
        if (Tracing.ENABLED && tracer != null) {
            tracer.store(heapOffset + ((long) index << 3), 8);
        }
        RawMemory.putDouble(address + offsetOf(index), value);
    }

    /**
     * Element {@code (int) base + stride * i} in {@code int} arithmetic, as {@link PlainDoubleArray} and a loop over a
     * {@code double[]} index it. With the index and its check in {@code long}, the check was hoisted out of the loop
     * too, but the loop body kept the {@code long} arithmetic and C2 did not unroll MG's loops: rprj3 and interp ran
     * 1.25 times as long as on plain arrays (MgLoopsBench), 1.12 and 1.16 times with {@code int} indices. Computing
     * the address apart from a {@code long} check (so that C2 could hoist the row's address) was slower still (1.5).
     * Only {@code base} is checked to be an {@code int}; a sum that overflows wraps, as an array index does, and the
     * wrapped index is checked against the length like any other, so no access leaves the object.
     */
    @Override
    public double get(long base, int i, int stride) {
        if ((int) base != base) {
            throw baseOutOfRange(base);
        }
        final int index = (int) base + stride * i;
        if (Tracing.ENABLED && tracer != null) {
            tracer.load(heapOffset + ((long) index << 3), 8);
        }
        return RawMemory.getDouble(address + offsetOf(index));
    }

    @Override
    public void set(long base, int i, int stride, double value) {
        if ((int) base != base) {
            throw baseOutOfRange(base);
        }
        final int index = (int) base + stride * i;
        if (Tracing.ENABLED && tracer != null) {
            tracer.store(heapOffset + ((long) index << 3), 8);
        }
        RawMemory.putDouble(address + offsetOf(index), value);
    }

    @Override
    public void addScaled(double alpha, DoubleArray x, int from, int to) {
        checkBulkRange(x, from, to);
        int done = vectorized(x, to - from)
                ? VectorLoops.addScaled(segment, alpha, x.segment, plainArray(x), from, to) : from;
        addScaledByElement(alpha, x, done, to);
    }

    // The element loops (the tails, or everything without lanes) stay out of the bulk methods, which keeps those small
    // for C2's inlining: with its loop inside, addScaled was 90 bytes and "too large" to inline into CG's update.
    private void addScaledByElement(double alpha, DoubleArray x, int from, int to) {
        for (int j = from; j < to; j++) {
            set(j, get(j) + alpha * x.get(j));
        }
    }

    @Override
    public void setScaled(double alpha, DoubleArray x, int from, int to) {
        checkBulkRange(x, from, to);
        int done = vectorized(x, to - from)
                ? VectorLoops.setScaled(segment, alpha, x.segment, plainArray(x), from, to) : from;
        setScaledByElement(alpha, x, done, to);
    }

    private void setScaledByElement(double alpha, DoubleArray x, int from, int to) {
        for (int j = from; j < to; j++) {
            set(j, alpha * x.get(j));
        }
    }

    @Override
    public void scaleAndAdd(double beta, DoubleArray x, int from, int to) {
        checkBulkRange(x, from, to);
        int done = vectorized(x, to - from)
                ? VectorLoops.scaleAndAdd(segment, beta, x.segment, plainArray(x), from, to) : from;
        scaleAndAddByElement(beta, x, done, to);
    }

    private void scaleAndAddByElement(double beta, DoubleArray x, int from, int to) {
        for (int j = from; j < to; j++) {
            set(j, x.get(j) + beta * get(j));
        }
    }

    @Override
    public void scaleComplex(DoubleArray factors, DoubleArray copy) {
        checkComplexScaling(factors, copy);
        // the stores go through copy's segment: only lane-wise when it is in the heap too
        int done = copy instanceof MappedDoubleArray && factors.lanewiseAccess()
                && vectorized(copy, 2 * factors.length)
                ? VectorLoops.scaleComplex(segment, factors.segment, plainArray(factors), copy.segment, factors.length)
                : 0;
        scaleComplexByElement(factors, copy, done);
    }

    private void scaleComplexByElement(DoubleArray factors, DoubleArray copy, int from) {
        int count = factors.length;
        for (int i = from; i < count; i++) {
            double f = factors.get(i);
            double re = get(2 * i) * f;
            double im = get(2 * i + 1) * f;
            set(2 * i, re);
            set(2 * i + 1, im);
            copy.set(2 * i, re);
            copy.set(2 * i + 1, im);
        }
    }

    /** The array of a plain object, whose lanes {@link VectorLoops} loads from it; {@code null} for a heap object. */
    private static double[] plainArray(DoubleArray x) {
        return x instanceof PlainDoubleArray plain ? plain.values() : null;
    }

    /**
     * Whether an operation over {@code elements} elements of this object and {@code x} runs lane-wise: not while the
     * Vector API is missing or a tracer must see each access (campaign JVMs), nor before the lanes pay for their
     * warm-up ({@link BulkLanePolicy}).
     */
    private boolean vectorized(DoubleArray x, int elements) {
        return lanewiseAccess() && x.lanewiseAccess() && BulkLanePolicy.lanewise(elements);
    }

    @Override
    public void fill(double value) {
        for (int i = 0; i < length; i++) {
            set(i, value);
        }
    }

    @Override
    public void copyFrom(double[] source, int sourceIndex, int at, int count) {
        if (Tracing.ENABLED && tracer != null) {
            DataObject.checkRange(sourceIndex, count, source.length);
            DataObject.checkRange(at, count, length);
            for (int i = 0; i < count; i++) {
                set(at + i, source[sourceIndex + i]);
            }
        } else {
            DataObject.checkRange(sourceIndex, count, source.length);
            DataObject.checkRange(at, count, length);
            RawMemory.copy(source, sourceIndex, address + ((long) at << 3), count);
        }
    }

    @Override
    public void copyTo(int at, double[] target, int targetIndex, int count) {
        if (Tracing.ENABLED && tracer != null) {
            DataObject.checkRange(at, count, length);
            DataObject.checkRange(targetIndex, count, target.length);
            for (int i = 0; i < count; i++) {
                target[targetIndex + i] = get(at + i);
            }
        } else {
            DataObject.checkRange(at, count, length);
            DataObject.checkRange(targetIndex, count, target.length);
            RawMemory.copy(address + ((long) at << 3), target, targetIndex, count);
        }
    }

    @Override
    public void copyTo(int at, DoubleArray target, int targetAt, int count) {
        if (Tracing.ENABLED && (tracer != null || target.tracer != null)) {
            DataObject.checkRange(at, count, length);
            DataObject.checkRange(targetAt, count, target.length);
            double[] values = new double[count]; // a temporary, as arraycopy behaves for overlapping ranges
            for (int i = 0; i < count; i++) {
                values[i] = get(at + i);
            }
            for (int i = 0; i < count; i++) {
                target.set(targetAt + i, values[i]);
            }
        } else {
            MemorySegment.copy(segment, (long) at << 3, target.segment, (long) targetAt << 3, (long) count << 3);
        }
    }

    /** An object of more than {@link #MAX_CHECKED_LENGTH} elements: indices are checked against its length. */
    static final class Large extends MappedDoubleArray {
        private Large(String name, ObjectRole role, MemorySegment segment, long heapOffset, AccessTracer tracer) {
            super(name, role, segment, heapOffset, tracer);
        }

        @Override
        long offsetOf(int index) {
            return (long) Objects.checkIndex(index, length) << 3;
        }
    }
}
