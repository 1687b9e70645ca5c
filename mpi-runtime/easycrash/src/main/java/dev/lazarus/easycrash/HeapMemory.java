package dev.lazarus.easycrash;

import java.lang.reflect.Field;

/**
 * Loads and stores at absolute addresses of a mapped heap: the element accessors of the persistent-heap objects,
 * which check their index against the object's length first, as an array access does.
 *
 * <p>Why not {@link java.lang.foreign.MemorySegment}'s accessors, which the bulk copies, MPI buffers and checkpoints
 * keep using: on JDK 25 a segment access checks a {@code long} byte offset and C2 does not fold the address into the
 * instruction, so a loop over the heap carries two to four extra instructions per access that a loop over a Java
 * array does not (a sign extension, a shift, an add and a register move; docs/ARCHITECTURE.md, "Element
 * accessors"). CG's sparse matrix-vector product, a gather, ran 1.9 to 2.3 times as long as on {@code double[]};
 * with an {@code int} index checked by {@link java.util.Objects#checkIndex}, which C2 compiles to the array bounds
 * check and hoists out of loops alike, and an absolute address, it compiles to the array loop's code.
 *
 * <p>The raw accesses are {@code sun.misc.Unsafe}'s, which every Lazarus JVM already permits
 * ({@code --sun-misc-unsafe-memory-access=allow}, needed by Chronicle Map and the block hasher); the internal
 * {@code jdk.internal.misc.Unsafe} would need an export that {@code javac --release} refuses. An object must not be
 * used after its heap is closed: the address is then unmapped. These methods are deprecated for removal (JEP 471); by
 * then C2 is expected to compile segment accesses as tightly, and this class is the one place to change back.
 */
@SuppressWarnings("removal") // see the class comment
final class HeapMemory {
    private static final sun.misc.Unsafe UNSAFE = unsafe();

    private HeapMemory() {
    }

    static double getDouble(long address) {
        return UNSAFE.getDouble(address);
    }

    static void putDouble(long address, double value) {
        UNSAFE.putDouble(address, value);
    }

    static int getInt(long address) {
        return UNSAFE.getInt(address);
    }

    static void putInt(long address, int value) {
        UNSAFE.putInt(address, value);
    }

    static long getLong(long address) {
        return UNSAFE.getLong(address);
    }

    static void putLong(long address, long value) {
        UNSAFE.putLong(address, value);
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
