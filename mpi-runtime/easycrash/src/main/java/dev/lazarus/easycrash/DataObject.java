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
    /** Whether the application declares this object's changes ({@link #changed}); until then it is persisted whole. */
    private boolean declaresChanges;
    /** The span of the elements declared changed since the object was last persisted; empty when from >= to. */
    private int changedFrom = Integer.MAX_VALUE;
    private int changedTo;

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

    /**
     * Declares that elements {@code [from, from + count)} were written since this object was last persisted. From the
     * first call on, the application declares every change of the object: a persistence operation then writes back
     * the cache lines of the span of the ranges declared since the previous one (none if nothing was declared)
     * instead of the whole object. Worth it for a large critical object of which each iteration writes a small part,
     * such as npb.EP's tallies, one slot per batch: written back whole at class A, its persistence cost EP on two
     * ranks 5% of its run. A change left undeclared is not written back until it happens to be evicted, as for an
     * object the plan does not name, and the application's acceptance check still decides whether a restart counts.
     * Costs nothing per element access; on a plain object (EasyCrash off) it only records the span.
     *
     * @throws IndexOutOfBoundsException unless the range lies within the object
     */
    public final void changed(int from, int count) {
        checkRange(from, count, length);
        declaresChanges = true;
        if (count > 0) {
            changedFrom = Math.min(changedFrom, from);
            changedTo = Math.max(changedTo, from + count);
        }
    }

    /** Byte offset in {@link #segment()} of what the next persistence operation writes back. */
    final long unpersistedOffset() {
        return declaresChanges && changedFrom < changedTo ? elementType().bytes(changedFrom) : 0;
    }

    /** Bytes from {@link #unpersistedOffset()} the next persistence operation writes back (0: nothing). */
    final long unpersistedBytes() {
        if (!declaresChanges) {
            return byteSize();
        }
        return changedFrom < changedTo ? elementType().bytes(changedTo - changedFrom) : 0;
    }

    /** The object was written back: no change is pending. */
    final void persisted() {
        changedFrom = Integer.MAX_VALUE;
        changedTo = 0;
    }

    /** Throws {@link IndexOutOfBoundsException} unless {@code [from, from + count)} lies within {@code [0, length)}. */
    static void checkRange(int from, int count, int length) {
        Objects.checkFromIndexSize(from, count, length);
    }
}
