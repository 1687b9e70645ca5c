package dev.lazarus.easycrash;

import dev.lazarus.easycrash.trace.AccessTracer;
import dev.lazarus.easycrash.trace.Tracing;
import dev.lazarus.mpi.memory.RawMemory;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/** An {@code int} array in the persistent heap; elements go through {@link RawMemory}. */
sealed class MappedIntArray extends IntArray permits MappedIntArray.Large {
    /** The first element's address in the mapping, for {@link RawMemory}. */
    private final long address;

    /** The most elements an object may have for {@link #offsetOf}'s check (MappedDoubleArray's says why). */
    static final int MAX_CHECKED_LENGTH = Integer.MAX_VALUE >>> 2;

    /** A heap object over {@code segment}: a {@link Large} one above {@link #MAX_CHECKED_LENGTH} elements. */
    static MappedIntArray of(String name, ObjectRole role, MemorySegment segment, long heapOffset,
                             AccessTracer tracer) {
        return segment.byteSize() / 4 > MAX_CHECKED_LENGTH ? new Large(name, role, segment, heapOffset, tracer)
                : new MappedIntArray(name, role, segment, heapOffset, tracer);
    }

    private MappedIntArray(String name, ObjectRole role, MemorySegment segment, long heapOffset,
                           AccessTracer tracer) {
        super(name, role, segment, heapOffset, tracer, Math.toIntExact(segment.byteSize() / 4));
        this.address = segment.address();
    }

    /** The byte offset of element {@code index}; {@link IndexOutOfBoundsException} outside {@code [0, length)}. */
    long offsetOf(int index) {
        return (long) Objects.checkIndex(index, length & MAX_CHECKED_LENGTH) << 2;
    }

    @Override
    public int get(int index) {
        if (Tracing.ENABLED && tracer != null) {
            tracer.load(heapOffset + ((long) index << 2), 4);
        }
        return RawMemory.getInt(address + offsetOf(index));
    }

    @Override
    public void set(int index, int value) {
        if (Tracing.ENABLED && tracer != null) {
            tracer.store(heapOffset + ((long) index << 2), 4);
        }
        RawMemory.putInt(address + offsetOf(index), value);
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
            DataObject.checkRange(sourceIndex, count, source.length);
            DataObject.checkRange(at, count, length);
            RawMemory.copy(source, sourceIndex, address + ((long) at << 2), count);
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
            DataObject.checkRange(at, count, length);
            DataObject.checkRange(targetIndex, count, target.length);
            RawMemory.copy(address + ((long) at << 2), target, targetIndex, count);
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

    /** An object of more than {@link #MAX_CHECKED_LENGTH} elements: indices are checked against its length. */
    static final class Large extends MappedIntArray {
        private Large(String name, ObjectRole role, MemorySegment segment, long heapOffset, AccessTracer tracer) {
            super(name, role, segment, heapOffset, tracer);
        }

        @Override
        long offsetOf(int index) {
            return (long) Objects.checkIndex(index, length) << 2;
        }
    }
}
