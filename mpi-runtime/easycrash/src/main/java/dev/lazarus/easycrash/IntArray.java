package dev.lazarus.easycrash;

import dev.lazarus.easycrash.trace.AccessTracer;
import dev.lazarus.easycrash.trace.Tracing;
import dev.lazarus.mpi.ElementType;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** A {@code int} array in the persistent heap. Accessors compile to plain loads and stores in production. */
public final class IntArray extends DataObject {
    private static final ValueLayout.OfInt LAYOUT = ValueLayout.JAVA_INT;

    IntArray(String name, ObjectRole role, MemorySegment segment, long heapOffset, AccessTracer tracer) {
        super(name, role, segment, heapOffset, tracer, Math.toIntExact(segment.byteSize() / 4));
    }

    public int get(int index) {
        if (Tracing.ENABLED && tracer != null) {
            tracer.load(heapOffset + ((long) index << 2), 4);
        }
        return segment.getAtIndex(LAYOUT, index);
    }

    public void set(int index, int value) {
        if (Tracing.ENABLED && tracer != null) {
            tracer.store(heapOffset + ((long) index << 2), 4);
        }
        segment.setAtIndex(LAYOUT, index, value);
    }

    /** Sets every element to {@code value}. */
    public void fill(int value) {
        for (int i = 0; i < length; i++) {
            set(i, value);
        }
    }

    /** Copies {@code source[0 .. length)} in. */
    public void copyFrom(int[] source) {
        for (int i = 0; i < length; i++) {
            set(i, source[i]);
        }
    }

    /** Copies the contents out into a new array. */
    public int[] toArray() {
        int[] copy = new int[length];
        for (int i = 0; i < length; i++) {
            copy[i] = get(i);
        }
        return copy;
    }

    @Override
    public ElementType elementType() {
        return ElementType.INT;
    }
}
