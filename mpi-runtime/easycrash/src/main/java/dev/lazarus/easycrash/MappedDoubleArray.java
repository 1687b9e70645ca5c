package dev.lazarus.easycrash;

import dev.lazarus.easycrash.trace.AccessTracer;
import dev.lazarus.easycrash.trace.Tracing;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** A {@code double} array in the persistent heap. Accessors compile to plain loads and stores in production. */
final class MappedDoubleArray extends DoubleArray {
    /**
     * Unaligned, although every element is aligned (objects start on a page of the mapped heap): an aligned layout
     * makes every access test the address's low bits, a test C2 folds away for some index expressions but leaves in
     * the loop for others (a test and branch per element in MG's psinv for {@code r.get(c - 1, i)}, whose loop then
     * is not unrolled, and eight per element in rprj3's {@code r.get(row - 1, j, 2)} loop). On x86-64 and AArch64 the
     * load and store instructions are the same.
     */
    private static final ValueLayout.OfDouble LAYOUT = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    MappedDoubleArray(String name, ObjectRole role, MemorySegment segment, long heapOffset, AccessTracer tracer) {
        super(name, role, segment, heapOffset, tracer, Math.toIntExact(segment.byteSize() / 8));
    }

    @Override
    public double get(int index) {
        if (Tracing.ENABLED && tracer != null) {
            tracer.load(heapOffset + ((long) index << 3), 8);
        }
        return segment.getAtIndex(LAYOUT, index);
    }

    @Override
    public void set(int index, double value) {
        if (Tracing.ENABLED && tracer != null) {
            tracer.store(heapOffset + ((long) index << 3), 8);
        }
        segment.setAtIndex(LAYOUT, index, value);
    }

    @Override
    public double get(long base, int i, int stride) {
        final long index = base + (long) i * stride;
        if (Tracing.ENABLED && tracer != null) {
            tracer.load(heapOffset + (index << 3), 8);
        }
        return segment.getAtIndex(LAYOUT, index);
    }

    @Override
    public void set(long base, int i, int stride, double value) {
        final long index = base + (long) i * stride;
        if (Tracing.ENABLED && tracer != null) {
            tracer.store(heapOffset + (index << 3), 8);
        }
        segment.setAtIndex(LAYOUT, index, value);
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
            MemorySegment.copy(source, sourceIndex, segment, LAYOUT, (long) at << 3, count);
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
            MemorySegment.copy(segment, LAYOUT, (long) at << 3, target, targetIndex, count);
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
}
