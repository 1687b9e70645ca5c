package dev.lazarus.mpi;

/** A pending non-blocking operation started by {@link Comm#isend} or {@link Comm#irecv}. */
public interface Request {

    /**
     * Blocks until the operation has completed. For a receive, the registered {@link ReceiveHook}s have seen the
     * written range when this returns. Calling it again after completion returns at once.
     */
    void waitFor();

    /** Whether the operation has completed; completes it (and runs receive hooks) if so. Never blocks. */
    boolean test();
}
