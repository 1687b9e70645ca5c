package dev.lazarus.mpi.mpj;

import dev.lazarus.mpi.ElementType;
import dev.lazarus.mpi.spi.Buffers;

import java.lang.reflect.Array;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The Java arrays one rank's blocking calls stage memory segments in, kept and reused: one for the data MPJ reads
 * and one for the data it writes, per element type, grown to the largest count asked for.
 *
 * <p>Why: the mpiJava API takes only Java arrays, so every call on a persistent-heap object is staged. With a fresh
 * array per call, FT's transposes at class A allocated two 64 MB arrays per rank and call; the JVM's heap grew to
 * 2.2 GB and the kernel spent 4 to 5 s of system time zeroing the new pages in about half the runs (MPJ, 2 ranks:
 * 4.0 to 4.5 s against 2.0 to 2.3 s in the others). A slot is taken for the length of one call and given back by
 * {@link ArrayTransfer#close()}; a call that finds it taken (a second thread of the same rank) gets a fresh array, so
 * no two calls share one. Nonblocking calls always get fresh arrays: theirs live until the request completes.
 */
final class StagingArrays {
    /** The slot of the data MPJ reads. */
    static final int SEND = 0;
    /** The slot of the data MPJ writes. */
    static final int RECEIVE = 1;

    private final Object[][] arrays = new Object[2][ElementType.values().length];
    private final AtomicBoolean[] taken = {new AtomicBoolean(), new AtomicBoolean()};

    /**
     * The slot's array of {@code type} with room for {@code count} elements, taken until {@link #release}; or
     * {@code null} when the slot is taken by another call.
     */
    Object take(int slot, ElementType type, int count) {
        if (!taken[slot].compareAndSet(false, true)) {
            return null;
        }
        Object array = arrays[slot][type.ordinal()];
        if (array == null || Array.getLength(array) < count) {
            array = Buffers.newArray(type, count);
            arrays[slot][type.ordinal()] = array;
        }
        return array;
    }

    /** Gives the slot back. */
    void release(int slot) {
        taken[slot].set(false);
    }
}
