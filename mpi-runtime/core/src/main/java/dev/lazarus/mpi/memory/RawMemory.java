package dev.lazarus.mpi.memory;

import java.lang.reflect.Field;

/**
 * Loads and stores at absolute addresses of mapped files: the element accessors of the persistent-heap objects,
 * which check their index against the object's length first, as an array access does; and the fields a rank writes
 * once per iteration at constant offsets, the heap file's bookmark and the heartbeat page.
 *
 * <p>Why not {@link java.lang.foreign.MemorySegment}'s accessors, which the bulk copies, MPI buffers and checkpoints
 * keep using: on JDK 25 a segment access checks a {@code long} byte offset and C2 does not fold the address into the
 * instruction, so a loop over the heap carries two to four extra instructions per access that a loop over a Java
 * array does not (a sign extension, a shift, an add and a register move; docs/ARCHITECTURE.md, "Element
 * accessors"). CG's sparse matrix-vector product, a gather, ran 1.9 to 2.3 times as long as on {@code double[]};
 * with an {@code int} index checked by {@link java.util.Objects#checkIndex}, which C2 compiles to the array bounds
 * check and hoists out of loops alike, and an absolute address, it compiles to the array loop's code, provided the
 * check bounds the byte offset to {@code int} range (C2 folds {@code address + offset} into base + index x scale
 * addressing only then: the easycrash module's {@code MappedDoubleArray.MAX_CHECKED_LENGTH} says how).
 *
 * <p>The raw accesses are {@code sun.misc.Unsafe}'s, which every Lazarus JVM already permits
 * ({@code --sun-misc-unsafe-memory-access=allow}, needed by Chronicle Map and the block hasher); the internal
 * {@code jdk.internal.misc.Unsafe} would need its export at compile time too, which {@code javac --release} refuses
 * (only easycrash's {@code persist.JdkWriteBack}, for the write-back sun.misc lacks, compiles without it). An object
 * must not be used after its heap is closed: the address is then unmapped. These methods are deprecated for removal
 * (JEP 471); by then C2 is expected to compile segment accesses as tightly, and this class is the one place to change
 * back.
 *
 * <p>The per-iteration fields have another reason: a rank runs its bookkeeping once per iteration, so for the first
 * thousands of iterations it runs in the interpreter and C1, where a {@code MemorySegment.set} costs about 1.5 us
 * (its VarHandle chain runs call by call) and an {@code Unsafe} store about 0.06 us. Through segments the heap's
 * bookmark took 31 us and the heartbeat 19 us per iteration on average in a 2-rank solver.HEAT class A run (about
 * 120 ms of its 0.67 s).
 */
@SuppressWarnings("removal") // see the class comment
public final class RawMemory {
    private static final sun.misc.Unsafe UNSAFE = unsafe();
    private static final long DOUBLE_ARRAY_BASE = UNSAFE.arrayBaseOffset(double[].class);
    private static final long INT_ARRAY_BASE = UNSAFE.arrayBaseOffset(int[].class);
    private static final long LONG_ARRAY_BASE = UNSAFE.arrayBaseOffset(long[].class);

    private RawMemory() {
    }

    public static double getDouble(long address) {
        return UNSAFE.getDouble(address);
    }

    public static void putDouble(long address, double value) {
        UNSAFE.putDouble(address, value);
    }

    public static int getInt(long address) {
        return UNSAFE.getInt(address);
    }

    public static void putInt(long address, int value) {
        UNSAFE.putInt(address, value);
    }

    public static long getLong(long address) {
        return UNSAFE.getLong(address);
    }

    public static void putLong(long address, long value) {
        UNSAFE.putLong(address, value);
    }

    /** Copies {@code bytes} bytes from address {@code from} to address {@code to} (ranges must not overlap). */
    public static void copy(long from, long to, long bytes) {
        UNSAFE.copyMemory(from, to, bytes);
    }

    /**
     * Copies {@code count} elements of {@code from} from {@code fromIndex} to address {@code to}; the caller has
     * checked both ranges. A short copy costs a call and a stub here, where {@code MemorySegment.copy} from an array
     * also checks the array's type, the layout's alignment and byte order and the segment's session on every call:
     * FT's transposes copy each tile row (64 to 256 doubles) this way.
     */
    public static void copy(double[] from, int fromIndex, long to, int count) {
        UNSAFE.copyMemory(from, DOUBLE_ARRAY_BASE + ((long) fromIndex << 3), null, to, (long) count << 3);
    }

    /** Copies {@code count} elements from address {@code from} into {@code to} at {@code toIndex} (ranges checked). */
    public static void copy(long from, double[] to, int toIndex, int count) {
        UNSAFE.copyMemory(null, from, to, DOUBLE_ARRAY_BASE + ((long) toIndex << 3), (long) count << 3);
    }

    /** As {@link #copy(double[], int, long, int)}, for {@code int}s. */
    public static void copy(int[] from, int fromIndex, long to, int count) {
        UNSAFE.copyMemory(from, INT_ARRAY_BASE + ((long) fromIndex << 2), null, to, (long) count << 2);
    }

    /** As {@link #copy(long, double[], int, int)}, for {@code int}s. */
    public static void copy(long from, int[] to, int toIndex, int count) {
        UNSAFE.copyMemory(null, from, to, INT_ARRAY_BASE + ((long) toIndex << 2), (long) count << 2);
    }

    /** As {@link #copy(double[], int, long, int)}, for {@code long}s. */
    public static void copy(long[] from, int fromIndex, long to, int count) {
        UNSAFE.copyMemory(from, LONG_ARRAY_BASE + ((long) fromIndex << 3), null, to, (long) count << 3);
    }

    /** As {@link #copy(long, double[], int, int)}, for {@code long}s. */
    public static void copy(long from, long[] to, int toIndex, int count) {
        UNSAFE.copyMemory(null, from, to, LONG_ARRAY_BASE + ((long) toIndex << 3), (long) count << 3);
    }

    private static sun.misc.Unsafe unsafe() {
        try {
            Field field = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            field.setAccessible(true);
            return (sun.misc.Unsafe) field.get(null);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
