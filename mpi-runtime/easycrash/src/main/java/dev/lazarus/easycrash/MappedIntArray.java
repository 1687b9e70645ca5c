package dev.lazarus.easycrash;

import dev.lazarus.easycrash.trace.AccessTracer;
import dev.lazarus.easycrash.trace.Tracing;
import dev.lazarus.mpi.memory.RawMemory;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/** A {@code int} array in the persistent heap; elements go through {@link RawMemory}. */
final class MappedIntArray extends IntArray {
    /** The first element's address in the mapping, for {@link RawMemory}. */
    private final long address;

    private static final ValueLayout.OfInt LAYOUT = ValueLayout.JAVA_INT;

    MappedIntArray(String name, ObjectRole role, MemorySegment segment, long heapOffset, AccessTracer tracer) {
        super(name, role, segment, heapOffset, tracer, Math.toIntExact(segment.byteSize() / 4));
        this.address = segment.address();
    }

    @Override
    public int get(int index) {
        if (Tracing.ENABLED && tracer != null) {
            tracer.load(heapOffset + ((long) index << 2), 4);
        }
        return RawMemory.getInt(address + ((long) Objects.checkIndex(index, length) << 2));
    }

    @Override
    public void set(int index, int value) {
        if (Tracing.ENABLED && tracer != null) {
            tracer.store(heapOffset + ((long) index << 2), 4);
        }
        RawMemory.putInt(address + ((long) Objects.checkIndex(index, length) << 2), value);
    }

    @Override
    public void fill(int value) {
        for (int i = 0; i < length; i++) {
            set(i, value);
        }
    }

    @Override
    public void copyFrom(int[] source, int sourceIndex, int at, int count) {
        if (Tracing.ENABLED && tracer != null) {
            DataObject.checkRange(sourceIndex, count, source.length);
            DataObject.checkRange(at, count, length);
            for (int i = 0; i < count; i++) {
                set(at + i, source[sourceIndex + i]);
            }
        } else {
            MemorySegment.copy(source, sourceIndex, segment, LAYOUT, (long) at << 2, count);
        }
    }

    @Override
    public void copyTo(int at, int[] target, int targetIndex, int count) {
        if (Tracing.ENABLED && tracer != null) {
            DataObject.checkRange(at, count, length);
            DataObject.checkRange(targetIndex, count, target.length);
            for (int i = 0; i < count; i++) {
                target[targetIndex + i] = get(at + i);
            }
        } else {
            MemorySegment.copy(segment, LAYOUT, (long) at << 2, target, targetIndex, count);
        }
    }

    @Override
    public void copyTo(int at, IntArray target, int targetAt, int count) {
        if (Tracing.ENABLED && (tracer != null || target.tracer != null)) {
            DataObject.checkRange(at, count, length);
            DataObject.checkRange(targetAt, count, target.length);
            int[] values = new int[count]; // a temporary, as arraycopy behaves for overlapping ranges
            for (int i = 0; i < count; i++) {
                values[i] = get(at + i);
            }
            for (int i = 0; i < count; i++) {
                target.set(targetAt + i, values[i]);
            }
        } else {
            MemorySegment.copy(segment, (long) at << 2, target.segment, (long) targetAt << 2, (long) count << 2);
        }
    }
}
