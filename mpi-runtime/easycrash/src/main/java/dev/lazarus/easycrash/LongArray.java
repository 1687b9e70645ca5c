package dev.lazarus.easycrash;

import dev.lazarus.easycrash.trace.AccessTracer;
import dev.lazarus.easycrash.trace.Tracing;
import dev.lazarus.mpi.ElementType;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** A {@code long} array in the persistent heap. Accessors compile to plain loads and stores in production. */
public final class LongArray extends DataObject {
    private static final ValueLayout.OfLong LAYOUT = ValueLayout.JAVA_LONG;

    LongArray(String name, ObjectRole role, MemorySegment segment, long heapOffset, AccessTracer tracer) {
        super(name, role, segment, heapOffset, tracer, Math.toIntExact(segment.byteSize() / 8));
    }

    public long get(int index) {
        if (Tracing.ENABLED && tracer != null) {
            tracer.load(heapOffset + ((long) index << 3), 8);
        }
        return segment.getAtIndex(LAYOUT, index);
    }

    public void set(int index, long value) {
        if (Tracing.ENABLED && tracer != null) {
            tracer.store(heapOffset + ((long) index << 3), 8);
        }
        segment.setAtIndex(LAYOUT, index, value);
    }

    /** Sets every element to {@code value}. */
    public void fill(long value) {
        for (int i = 0; i < length; i++) {
            set(i, value);
        }
    }

    /** Copies {@code source[0 .. length)} in. */
    public void copyFrom(long[] source) {
        for (int i = 0; i < length; i++) {
            set(i, source[i]);
        }
    }

    /** Copies the contents out into a new array. */
    public long[] toArray() {
        long[] copy = new long[length];
        for (int i = 0; i < length; i++) {
            copy[i] = get(i);
        }
        return copy;
    }

    @Override
    public ElementType elementType() {
        return ElementType.LONG;
    }
}
