package dev.lazarus.mpi;

/**
 * The small MPI API that Lazarus applications are written against, so that they never import {@code mpi.*} and run
 * unchanged on either backend (Open MPI's Java bindings or MPJ Express), chosen at launch.
 *
 * <p>Buffers are {@code double[]}, {@code long[]}, {@code int[]}, {@code byte[]} or off-heap
 * {@link java.lang.foreign.MemorySegment}s. Offsets and counts are in elements. The overloads without an
 * {@link ElementType} infer it from the array type; a {@code MemorySegment} needs the explicit type. A receive buffer
 * may be the same object as the send buffer in {@code reduce}, {@code allreduce} and {@code allgather}: the
 * implementation then copies the send data first, as MPI's {@code MPI_IN_PLACE} would.
 *
 * <p>Every call that writes into a user buffer runs the registered {@link ReceiveHook}s with exactly the byte ranges it
 * wrote. Bad arguments (bounds, ranks, counts) throw {@link IllegalArgumentException}; failures reported by the
 * backend throw {@link MpiException}.
 */
public interface Comm {

    /** Wildcard source for {@link #recv} and {@link #irecv}. */
    int ANY_SOURCE = -1;
    /** Wildcard tag for {@link #recv} and {@link #irecv}. */
    int ANY_TAG = -1;

    /** This process's rank, from 0 to {@code size() - 1}. */
    int rank();

    /** Number of ranks in the job. */
    int size();

    /** Name of the backend, {@code openmpi} or {@code mpj}. */
    String backend();

    /** Registers a hook that is told about every range MPI writes into a user buffer. */
    void addReceiveHook(ReceiveHook hook);

    /** Removes a hook; returns whether it was registered. */
    boolean removeReceiveHook(ReceiveHook hook);

    // ---- point to point -------------------------------------------------------------------------------------------

    void send(Object buf, int offset, int count, ElementType type, int dest, int tag);

    default void send(Object buf, int offset, int count, int dest, int tag) {
        send(buf, offset, count, ElementType.of(buf), dest, tag);
    }

    /**
     * Receives at most {@code count} elements.
     *
     * @return the number of elements received
     */
    int recv(Object buf, int offset, int count, ElementType type, int source, int tag);

    default int recv(Object buf, int offset, int count, int source, int tag) {
        return recv(buf, offset, count, ElementType.of(buf), source, tag);
    }

    Request isend(Object buf, int offset, int count, ElementType type, int dest, int tag);

    default Request isend(Object buf, int offset, int count, int dest, int tag) {
        return isend(buf, offset, count, ElementType.of(buf), dest, tag);
    }

    Request irecv(Object buf, int offset, int count, ElementType type, int source, int tag);

    default Request irecv(Object buf, int offset, int count, int source, int tag) {
        return irecv(buf, offset, count, ElementType.of(buf), source, tag);
    }

    /** Waits for every request; {@code null} entries are ignored. */
    default void waitAll(Request... requests) {
        for (Request request : requests) {
            if (request != null) {
                request.waitFor();
            }
        }
    }

    /**
     * Sends to {@code dest} and receives from {@code source} in one deadlock-free call.
     *
     * @return the number of elements received
     */
    int sendrecv(Object sendBuf, int sendOffset, int sendCount, int dest, int sendTag,
                 Object recvBuf, int recvOffset, int recvCount, int source, int recvTag, ElementType type);

    default int sendrecv(Object sendBuf, int sendOffset, int sendCount, int dest, int sendTag,
                         Object recvBuf, int recvOffset, int recvCount, int source, int recvTag) {
        return sendrecv(sendBuf, sendOffset, sendCount, dest, sendTag,
                recvBuf, recvOffset, recvCount, source, recvTag, ElementType.of(sendBuf));
    }

    // ---- collectives ----------------------------------------------------------------------------------------------

    void barrier();

    /**
     * A barrier for a wait that may be long (a node's rebuild from L2, another rank's restore): a backend that can
     * waits without spinning, so the ranks that wait leave the cores to the ones that work and to their node's
     * daemon. MPI implementations spin in a blocking barrier; on a node whose cores are all busy that slows the very
     * work being waited for. Costs up to a millisecond more than {@link #barrier()} once everyone has arrived, so it
     * is not for a main loop. A backend that cannot wait without spinning makes it a {@link #barrier()}.
     */
    void idleBarrier();

    void bcast(Object buf, int offset, int count, ElementType type, int root);

    default void bcast(Object buf, int offset, int count, int root) {
        bcast(buf, offset, count, ElementType.of(buf), root);
    }

    /** Combines {@code count} elements from every rank into {@code recvBuf} at {@code root} (ignored elsewhere). */
    void reduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, ElementType type,
                ReduceOp op, int root);

    default void reduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, ReduceOp op,
                        int root) {
        reduce(sendBuf, sendOffset, recvBuf, recvOffset, count, ElementType.of(sendBuf), op, root);
    }

    void allreduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, ElementType type,
                   ReduceOp op);

    default void allreduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, ReduceOp op) {
        allreduce(sendBuf, sendOffset, recvBuf, recvOffset, count, ElementType.of(sendBuf), op);
    }

    /** Convenience: all-reduces one {@code double}. */
    default double allreduce(double value, ReduceOp op) {
        double[] cell = {value};
        allreduce(cell, 0, cell, 0, 1, ElementType.DOUBLE, op);
        return cell[0];
    }

    /** Convenience: all-reduces one {@code long}. */
    default long allreduce(long value, ReduceOp op) {
        long[] cell = {value};
        allreduce(cell, 0, cell, 0, 1, ElementType.LONG, op);
        return cell[0];
    }

    /**
     * Every rank sends {@code count} elements; {@code root} receives them in rank order, {@code count} per rank, at
     * {@code recvOffset} (the receive buffer is ignored elsewhere and may be {@code null}).
     */
    void gather(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset, ElementType type,
                int root);

    default void gather(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset, int root) {
        gather(sendBuf, sendOffset, count, recvBuf, recvOffset, ElementType.of(sendBuf), root);
    }

    /** Like {@link #gather} with every rank receiving. */
    void allgather(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset, ElementType type);

    default void allgather(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset) {
        allgather(sendBuf, sendOffset, count, recvBuf, recvOffset, ElementType.of(sendBuf));
    }

    /** Every rank sends block {@code j} of {@code count} elements to rank {@code j}. */
    void alltoall(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset, ElementType type);

    default void alltoall(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset) {
        alltoall(sendBuf, sendOffset, count, recvBuf, recvOffset, ElementType.of(sendBuf));
    }

    /**
     * All-to-all with per-rank counts and displacements (in elements, relative to the offsets). Each array has
     * {@code size()} entries.
     */
    void alltoallv(Object sendBuf, int sendOffset, int[] sendCounts, int[] sendDispls,
                   Object recvBuf, int recvOffset, int[] recvCounts, int[] recvDispls, ElementType type);

    default void alltoallv(Object sendBuf, int sendOffset, int[] sendCounts, int[] sendDispls,
                           Object recvBuf, int recvOffset, int[] recvCounts, int[] recvDispls) {
        alltoallv(sendBuf, sendOffset, sendCounts, sendDispls, recvBuf, recvOffset, recvCounts, recvDispls,
                ElementType.of(sendBuf));
    }

    /** Aborts the whole job with the given status. Does not return. */
    void abort(int status);
}
