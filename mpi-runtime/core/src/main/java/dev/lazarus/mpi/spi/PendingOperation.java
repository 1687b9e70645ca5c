package dev.lazarus.mpi.spi;

/** A backend's handle on a started non-blocking operation. */
public interface PendingOperation {

    /** Blocks until done; returns the number of elements transferred. */
    int await();

    /** Returns the number of elements transferred if done, or {@code -1} if still pending. Never blocks. */
    int poll();
}
