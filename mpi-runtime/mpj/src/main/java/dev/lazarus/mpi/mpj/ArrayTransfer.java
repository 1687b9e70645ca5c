package dev.lazarus.mpi.mpj;

import dev.lazarus.mpi.ElementType;
import dev.lazarus.mpi.spi.Buffers;

import java.lang.foreign.MemorySegment;

/**
 * A user buffer range as a Java array plus element offset, which is all the mpiJava API accepts. Arrays pass
 * through; a memory segment is copied into a staging array (and received data copied back by {@link #finish}). MPJ
 * Express 0.44's Reduce, Allreduce, Gather and Allgather compute wrong results when an offset is not zero (Reduce
 * hands every rank rank 0's data), so those calls ask for zero-offset staging. Staging arrays come from the rank's
 * {@link StagingArrays} when one is given (blocking calls; {@link #close} gives them back) and are fresh otherwise.
 *
 * @param array        the array to hand to MPJ (a staging array may be longer than the range)
 * @param offset       element offset in {@code array}
 * @param target       the user buffer to copy staged received data back to, or {@code null}
 * @param targetOffset element offset in {@code target}
 * @param type         element type
 * @param staging      the arrays {@code array} was taken from, or {@code null}
 * @param slot         the slot of {@code staging} it was taken from
 */
record ArrayTransfer(Object array, int offset, Object target, int targetOffset, ElementType type,
                     StagingArrays staging, int slot) implements AutoCloseable {

    /** A range that MPJ reads, staged in a fresh array if needed (nonblocking sends). */
    static ArrayTransfer toSend(Object buf, int offset, int count, ElementType type) {
        return toSend(buf, offset, count, type, false, null);
    }

    /** A range that MPJ reads; with {@code zeroOffset}, staged unless it starts at element 0. */
    static ArrayTransfer toSend(Object given, int offset, int count, ElementType type, boolean zeroOffset,
                                StagingArrays staging) {
        Object buf = Buffers.unwrap(given, type);
        if (buf instanceof MemorySegment || (zeroOffset && offset != 0)) {
            ArrayTransfer staged = staged(staging, StagingArrays.SEND, type, count, null, 0);
            Buffers.copy(buf, offset, staged.array, 0, count, type);
            return staged;
        }
        return new ArrayTransfer(buf, offset, null, 0, type, null, 0);
    }

    /** A range that MPJ writes, staged in a fresh array if needed (nonblocking receives); call {@link #finish}. */
    static ArrayTransfer toReceive(Object buf, int offset, int count, ElementType type) {
        return toReceive(buf, offset, count, type, false, null);
    }

    /** A range that MPJ writes; with {@code zeroOffset}, staged unless it starts at element 0. */
    static ArrayTransfer toReceive(Object given, int offset, int count, ElementType type, boolean zeroOffset,
                                   StagingArrays staging) {
        Object buf = Buffers.unwrap(given, type);
        if (buf instanceof MemorySegment || (zeroOffset && offset != 0)) {
            return staged(staging, StagingArrays.RECEIVE, type, count, buf, offset);
        }
        return new ArrayTransfer(buf, offset, null, 0, type, null, 0);
    }

    /** A range that MPJ reads on one rank and writes on the others (broadcast). */
    static ArrayTransfer toUpdate(Object given, int offset, int count, ElementType type, StagingArrays staging) {
        Object buf = Buffers.unwrap(given, type);
        if (buf instanceof MemorySegment segment) {
            ArrayTransfer staged = staged(staging, StagingArrays.RECEIVE, type, count, segment, offset);
            Buffers.copy(buf, offset, staged.array, 0, count, type);
            return staged;
        }
        return new ArrayTransfer(buf, offset, null, 0, type, null, 0);
    }

    private static ArrayTransfer staged(StagingArrays staging, int slot, ElementType type, int count, Object target,
                                        int targetOffset) {
        Object kept = staging == null ? null : staging.take(slot, type, count);
        return kept != null
                ? new ArrayTransfer(kept, 0, target, targetOffset, type, staging, slot)
                : new ArrayTransfer(Buffers.newArray(type, count), 0, target, targetOffset, type, null, 0);
    }

    /** Copies {@code count} received elements back into the user's buffer, if staged. */
    void finish(int count) {
        if (target != null && count > 0) {
            Buffers.copy(array, 0, target, targetOffset, count, type);
        }
    }

    /** Gives a kept staging array back to the rank's {@link StagingArrays}; call after {@link #finish}. */
    @Override
    public void close() {
        if (staging != null) {
            staging.release(slot);
        }
    }
}
