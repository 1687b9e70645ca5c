package dev.lazarus.mpi.mpj;

import dev.lazarus.mpi.ElementType;
import dev.lazarus.mpi.spi.Buffers;

import java.lang.foreign.MemorySegment;

/**
 * A user buffer range as a Java array plus element offset, which is all the mpiJava API accepts. Arrays pass
 * through; a memory segment is copied into a fresh array (and received data copied back by {@link #finish}). MPJ
 * Express 0.44's Reduce, Allreduce, Gather and Allgather compute wrong results when an offset is not zero (Reduce
 * hands every rank rank 0's data), so those calls ask for zero-offset staging.
 *
 * @param array  the array to hand to MPJ
 * @param offset element offset in {@code array}
 * @param target the user buffer to copy staged received data back to, or {@code null}
 * @param targetOffset element offset in {@code target}
 * @param type   element type
 */
record ArrayTransfer(Object array, int offset, Object target, int targetOffset, ElementType type) {

    /** A range that MPJ reads. */
    static ArrayTransfer toSend(Object buf, int offset, int count, ElementType type) {
        return toSend(buf, offset, count, type, false);
    }

    /** A range that MPJ reads; with {@code zeroOffset}, staged unless it starts at element 0. */
    static ArrayTransfer toSend(Object given, int offset, int count, ElementType type, boolean zeroOffset) {
        Object buf = Buffers.unwrap(given, type);
        if (buf instanceof MemorySegment || (zeroOffset && offset != 0)) {
            return new ArrayTransfer(Buffers.copyOf(buf, offset, count, type), 0, null, 0, type);
        }
        return new ArrayTransfer(buf, offset, null, 0, type);
    }

    /** A range that MPJ writes; call {@link #finish} once it has. */
    static ArrayTransfer toReceive(Object buf, int offset, int count, ElementType type) {
        return toReceive(buf, offset, count, type, false);
    }

    /** A range that MPJ writes; with {@code zeroOffset}, staged unless it starts at element 0. */
    static ArrayTransfer toReceive(Object given, int offset, int count, ElementType type, boolean zeroOffset) {
        Object buf = Buffers.unwrap(given, type);
        if (buf instanceof MemorySegment || (zeroOffset && offset != 0)) {
            return new ArrayTransfer(Buffers.newArray(type, count), 0, buf, offset, type);
        }
        return new ArrayTransfer(buf, offset, null, 0, type);
    }

    /** A range that MPJ reads on one rank and writes on the others (broadcast). */
    static ArrayTransfer toUpdate(Object given, int offset, int count, ElementType type) {
        Object buf = Buffers.unwrap(given, type);
        if (buf instanceof MemorySegment segment) {
            return new ArrayTransfer(Buffers.copyOf(buf, offset, count, type), 0, segment, offset, type);
        }
        return new ArrayTransfer(buf, offset, null, 0, type);
    }

    /** Copies {@code count} received elements back into the user's buffer, if staged. */
    void finish(int count) {
        if (target != null && count > 0) {
            Buffers.copy(array, 0, target, targetOffset, count, type);
        }
    }
}
