package dev.lazarus.mpi;

/**
 * Told about every byte range that MPI wrote into a user buffer: point-to-point receives and every collective that
 * writes into a receive buffer. Incremental checkpointing uses it to mark received ranges dirty, because writes made
 * by the network bypass page protection (libhashckpt §2.1).
 *
 * <p>Hooks run on the calling rank's thread, after the data is in place and before the call returns (for a
 * non-blocking receive, inside {@link Request#waitFor()} or a successful {@link Request#test()}). They must be
 * cheap and must not call back into the {@link Comm}.
 */
@FunctionalInterface
public interface ReceiveHook {

    /**
     * @param buffer     the buffer that was written: a {@code double[]}, {@code long[]}, {@code int[]}, {@code byte[]}
     *                   or {@link java.lang.foreign.MemorySegment}, the same object the caller passed
     * @param byteOffset first written byte, counted from the start of the buffer
     * @param byteLength number of bytes written, always positive
     */
    void onReceive(Object buffer, long byteOffset, long byteLength);
}
