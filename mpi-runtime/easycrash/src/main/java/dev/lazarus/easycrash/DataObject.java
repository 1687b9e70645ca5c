package dev.lazarus.easycrash;

import dev.lazarus.easycrash.trace.AccessTracer;
import dev.lazarus.mpi.ElementType;

import java.lang.foreign.MemorySegment;

/**
 * A named data object in a rank's persistent heap: a typed array over a slice of the mapped heap file. The typed
 * subclasses' accessors are the hot path: a plain memory access, plus a tracer call only in campaign JVMs.
 */
public abstract sealed class DataObject permits DoubleArray, LongArray, IntArray {
    final String name;
    final ObjectRole role;
    final MemorySegment segment;
    final long heapOffset;
    /**
     * The campaign's tracer, or {@code null}. A restart test in a campaign JVM runs untraced heaps; a null check there
     * costs a predictable branch, where a no-op tracer would make every access a megamorphic call (the traced run's
     * tracers share the call site) and run the restarts several times slower.
     */
    final AccessTracer tracer;
    final int length;

    DataObject(String name, ObjectRole role, MemorySegment segment, long heapOffset, AccessTracer tracer, int length) {
        this.name = name;
        this.role = role;
        this.segment = segment;
        this.heapOffset = heapOffset;
        this.tracer = tracer;
        this.length = length;
    }

    /** The name the object is registered and re-attached by. */
    public final String name() {
        return name;
    }

    public final ObjectRole role() {
        return role;
    }

    /** Number of elements. */
    public final int length() {
        return length;
    }

    /** The object's bytes in the mapped heap (for MPI buffers, checkpoints and persistence). */
    public final MemorySegment segment() {
        return segment;
    }

    /** Byte offset of the object in its heap file. */
    public final long heapOffset() {
        return heapOffset;
    }

    /** Size in bytes. */
    public final long byteSize() {
        return segment.byteSize();
    }

    public abstract ElementType elementType();
}
