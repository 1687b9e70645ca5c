package dev.lazarus.easycrash;

import dev.lazarus.easycrash.trace.AccessTracer;
import dev.lazarus.easycrash.trace.Tracing;
import dev.lazarus.mpi.memory.RawMemory;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/** A {@code long} array in the persistent heap; elements go through {@link RawMemory}. */
sealed class MappedLongArray extends LongArray permits MappedLongArray.Large {
    /** The first element's address in the mapping, for {@link RawMemory}. */
    private final long address;

    /** The most elements an object may have for {@link #offsetOf}'s check (MappedDoubleArray's says why). */
    static final int MAX_CHECKED_LENGTH = Integer.MAX_VALUE >>> 3;

    /** A heap object over {@code segment}: a {@link Large} one above {@link #MAX_CHECKED_LENGTH} elements. */
    static MappedLongArray of(String name, ObjectRole role, MemorySegment segment, long heapOffset,
                              AccessTracer tracer) {
        return segment.byteSize() / 8 > MAX_CHECKED_LENGTH ? new Large(name, role, segment, heapOffset, tracer)
                : new MappedLongArray(name, role, segment, heapOffset, tracer);
    }

    private MappedLongArray(String name, ObjectRole role, MemorySegment segment, long heapOffset,
                            AccessTracer tracer) {
        super(name, role, segment, heapOffset, tracer, Math.toIntExact(segment.byteSize() / 8));
        this.address = segment.address();
    }

    /** The byte offset of element {@code index}; {@link IndexOutOfBoundsException} outside {@code [0, length)}. */
    long offsetOf(int index) {
        return (long) Objects.checkIndex(index, length & MAX_CHECKED_LENGTH) << 3;
    }

    @Override
    public long get(int index) {
        if (Tracing.ENABLED && tracer != null) {
            tracer.load(heapOffset + ((long) index << 3), 8);
        }
        return RawMemory.getLong(address + offsetOf(index));
    }

    @Override
    public void set(int index, long value) {
        if (Tracing.ENABLED && tracer != null) {
            tracer.store(heapOffset + ((long) index << 3), 8);
        }
        RawMemory.putLong(address + offsetOf(index), value);
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
            DataObject.checkRange(sourceIndex, count, source.length);
            DataObject.checkRange(at, count, length);
            RawMemory.copy(source, sourceIndex, address + ((long) at << 3), count);
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
            DataObject.checkRange(at, count, length);
            DataObject.checkRange(targetIndex, count, target.length);
            RawMemory.copy(address + ((long) at << 3), target, targetIndex, count);
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

    /** An object of more than {@link #MAX_CHECKED_LENGTH} elements: indices are checked against its length. */
    static final class Large extends MappedLongArray {
        private Large(String name, ObjectRole role, MemorySegment segment, long heapOffset, AccessTracer tracer) {
            super(name, role, segment, heapOffset, tracer);
        }

        @Override
        long offsetOf(int index) {
            return (long) Objects.checkIndex(index, length) << 3;
        }
    }
}
