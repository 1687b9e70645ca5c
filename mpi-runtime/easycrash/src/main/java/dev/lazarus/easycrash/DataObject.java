package dev.lazarus.easycrash;

import dev.lazarus.easycrash.trace.AccessTracer;
import dev.lazarus.easycrash.trace.Tracing;
import dev.lazarus.mpi.ElementType;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A named data object of an application: a typed array that lives in a rank's persistent heap (a slice of the mapped
 * heap file), or, when EasyCrash is off ({@code --plain-arrays}), in an ordinary Java array. Applications are written
 * once against the typed subclasses; a JVM only ever loads one of their two implementations, so the accessors compile
 * to a plain memory access (plus a tracer call in campaign JVMs) with no type check.
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

    /**
     * The object's bytes (for MPI buffers, checkpoints and persistence): a slice of the mapped heap, or a heap segment
     * over the Java array of a plain object.
     */
    public final MemorySegment segment() {
        return segment;
    }

    /**
     * Whether code may read and write this object's {@link #segment()} with the Vector API
     * ({@code jdk.incubator.vector}) instead of its accessors: the module is in this JVM's boot layer (rank JVMs add
     * it) and no campaign tracer has to see each access. A loop written lane-wise over segments checks this for every
     * object it touches and otherwise runs its element loop; asking does not load the Vector API's classes.
     */
    public final boolean lanewiseAccess() {
        return VectorModule.PRESENT && !(Tracing.ENABLED && tracer != null);
    }

    /** Byte offset of the object in its heap file, or -1 for a plain object, which is in no heap. */
    public final long heapOffset() {
        return heapOffset;
    }

    /** Size in bytes. */
    public final long byteSize() {
        return segment.byteSize();
    }

    /** Whether the object lives in a persistent heap (else it is a plain Java array, EasyCrash off). */
    public final boolean persistent() {
        return heapOffset >= 0;
    }

    public abstract ElementType elementType();

    /** Throws {@link IndexOutOfBoundsException} unless {@code [from, from + count)} lies within {@code [0, length)}. */
    static void checkRange(int from, int count, int length) {
        Objects.checkFromIndexSize(from, count, length);
    }
}
