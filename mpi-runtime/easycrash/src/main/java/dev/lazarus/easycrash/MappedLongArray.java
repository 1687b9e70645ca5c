package dev.lazarus.easycrash;

import dev.lazarus.easycrash.trace.AccessTracer;
import dev.lazarus.easycrash.trace.Tracing;
import dev.lazarus.mpi.memory.RawMemory;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/** A {@code long} array in the persistent heap; elements go through {@link RawMemory}. */
final class MappedLongArray extends LongArray {
    /** The first element's address in the mapping, for {@link RawMemory}. */
    private final long address;

    private static final ValueLayout.OfLong LAYOUT = ValueLayout.JAVA_LONG;

    MappedLongArray(String name, ObjectRole role, MemorySegment segment, long heapOffset, AccessTracer tracer) {
        super(name, role, segment, heapOffset, tracer, Math.toIntExact(segment.byteSize() / 8));
        this.address = segment.address();
    }

    @Override
    public long get(int index) {
        if (Tracing.ENABLED && tracer != null) {
            tracer.load(heapOffset + ((long) index << 3), 8);
        }
        return RawMemory.getLong(address + ((long) Objects.checkIndex(index, length) << 3));
    }

    @Override
    public void set(int index, long value) {
        if (Tracing.ENABLED && tracer != null) {
            tracer.store(heapOffset + ((long) index << 3), 8);
        }
        RawMemory.putLong(address + ((long) Objects.checkIndex(index, length) << 3), value);
    }

    @Override
    public void fill(long value) {
        for (int i = 0; i < length; i++) {
            set(i, value);
        }
    }

    @Override
    public void copyFrom(long[] source, int sourceIndex, int at, int count) {
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
    public void copyTo(int at, long[] target, int targetIndex, int count) {
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
    public void copyTo(int at, LongArray target, int targetAt, int count) {
        if (Tracing.ENABLED && (tracer != null || target.tracer != null)) {
            DataObject.checkRange(at, count, length);
            DataObject.checkRange(targetAt, count, target.length);
            long[] values = new long[count]; // a temporary, as arraycopy behaves for overlapping ranges
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
