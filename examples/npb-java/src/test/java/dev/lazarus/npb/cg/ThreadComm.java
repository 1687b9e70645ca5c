package dev.lazarus.npb.cg;

import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.ElementType;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.mpi.spi.AbstractComm;
import dev.lazarus.mpi.spi.Buffers;
import dev.lazarus.mpi.spi.PendingOperation;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An in-memory communicator whose ranks are threads of one JVM, so that the kernel's distributed code paths can be
 * unit-tested without MPI. Only the collectives CG uses are implemented (barrier, bcast, reduce, allreduce on doubles,
 * gather, allgather); reductions combine in rank order, so results are deterministic.
 */
final class ThreadComm extends AbstractComm {
    private final Shared shared;

    private ThreadComm(int rank, Shared shared) {
        super(rank, shared.buffers.length);
        this.shared = shared;
    }

    /** What the ranks of one job share: where each rank published its buffer, and the barrier. */
    private static final class Shared {
        final Object[] buffers;
        final int[] offsets;
        final CyclicBarrier barrier;

        Shared(int size) {
            buffers = new Object[size];
            offsets = new int[size];
            barrier = new CyclicBarrier(size);
        }
    }

    /** The body one rank runs. */
    @FunctionalInterface
    interface RankBody {
        int run(Comm comm) throws Exception;
    }

    /** Runs {@code body} on {@code size} thread ranks and returns each rank's status; rethrows the first failure. */
    static int[] runAll(int size, RankBody body) throws Exception {
        Shared shared = new Shared(size);
        ExecutorService pool = Executors.newFixedThreadPool(size);
        try {
            List<Future<Integer>> futures = new ArrayList<>();
            for (int rank = 0; rank < size; rank++) {
                ThreadComm comm = new ThreadComm(rank, shared);
                futures.add(pool.submit(() -> {
                    try {
                        return body.run(comm);
                    } catch (Exception | Error e) {
                        shared.barrier.reset(); // release the other ranks instead of leaving them waiting
                        throw e;
                    }
                }));
            }
            int[] statuses = new int[size];
            for (int rank = 0; rank < size; rank++) {
                try {
                    statuses[rank] = futures.get(rank).get(5, TimeUnit.MINUTES);
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof Exception cause) {
                        throw cause;
                    }
                    throw e;
                }
            }
            return statuses;
        } finally {
            pool.shutdownNow();
        }
    }

    @Override
    public String backend() {
        return "threads";
    }

    private void await() {
        try {
            shared.barrier.await(2, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted at a collective", e);
        } catch (BrokenBarrierException | TimeoutException e) {
            throw new IllegalStateException("another rank failed or hung at a collective", e);
        }
    }

    /** Makes this rank's buffer visible to the others, and waits until every rank has done so. */
    private void publish(Object buf, int offset) {
        shared.buffers[rank()] = buf;
        shared.offsets[rank()] = offset;
        await();
    }

    @Override
    protected void doBarrier() {
        await();
    }

    @Override
    protected void doBcast(Object buf, int offset, int count, ElementType type, int root) {
        publish(buf, offset);
        if (rank() != root) {
            Buffers.copy(shared.buffers[root], shared.offsets[root], buf, offset, count, type);
        }
        await(); // nobody may change its buffer before every rank has read
    }

    @Override
    protected void doReduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                            ElementType type, ReduceOp op, int root) {
        publish(sendBuf, sendOffset);
        if (rank() == root) {
            combine(recvBuf, recvOffset, count, op);
        }
        await();
    }

    @Override
    protected void doAllreduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                               ElementType type, ReduceOp op) {
        publish(sendBuf, sendOffset);
        combine(recvBuf, recvOffset, count, op);
        await();
    }

    private void combine(Object recvBuf, int recvOffset, int count, ReduceOp op) {
        if (!(recvBuf instanceof double[] recv)) {
            throw new UnsupportedOperationException("ThreadComm reduces double[] only");
        }
        for (int e = 0; e < count; e++) {
            double acc = ((double[]) shared.buffers[0])[shared.offsets[0] + e];
            for (int i = 1; i < size(); i++) {
                double v = ((double[]) shared.buffers[i])[shared.offsets[i] + e];
                acc = switch (op) {
                    case SUM -> acc + v;
                    case PROD -> acc * v;
                    case MAX -> Math.max(acc, v);
                    case MIN -> Math.min(acc, v);
                };
            }
            recv[recvOffset + e] = acc;
        }
    }

    @Override
    protected void doGather(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                            ElementType type, int root) {
        publish(sendBuf, sendOffset);
        if (rank() == root) {
            for (int i = 0; i < size(); i++) {
                Buffers.copy(shared.buffers[i], shared.offsets[i], recvBuf, recvOffset + i * count, count, type);
            }
        }
        await();
    }

    @Override
    protected void doAllgather(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                               ElementType type) {
        publish(sendBuf, sendOffset);
        for (int i = 0; i < size(); i++) {
            Buffers.copy(shared.buffers[i], shared.offsets[i], recvBuf, recvOffset + i * count, count, type);
        }
        await();
    }

    // ---- not needed by the kernels under test ---------------------------------------------------------------------

    @Override
    protected void doSend(Object buf, int offset, int count, ElementType type, int dest, int tag) {
        throw new UnsupportedOperationException("ThreadComm: send");
    }

    @Override
    protected int doRecv(Object buf, int offset, int count, ElementType type, int source, int tag) {
        throw new UnsupportedOperationException("ThreadComm: recv");
    }

    @Override
    protected PendingOperation doIsend(Object buf, int offset, int count, ElementType type, int dest, int tag) {
        throw new UnsupportedOperationException("ThreadComm: isend");
    }

    @Override
    protected PendingOperation doIrecv(Object buf, int offset, int count, ElementType type, int source, int tag) {
        throw new UnsupportedOperationException("ThreadComm: irecv");
    }

    @Override
    protected int doSendrecv(Object sendBuf, int sendOffset, int sendCount, int dest, int sendTag, Object recvBuf,
                             int recvOffset, int recvCount, int source, int recvTag, ElementType type) {
        throw new UnsupportedOperationException("ThreadComm: sendrecv");
    }

    @Override
    protected void doAlltoall(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                              ElementType type) {
        throw new UnsupportedOperationException("ThreadComm: alltoall");
    }

    @Override
    protected void doAlltoallv(Object sendBuf, int sendOffset, int[] sendCounts, int[] sendDispls, Object recvBuf,
                               int recvOffset, int[] recvCounts, int[] recvDispls, ElementType type) {
        throw new UnsupportedOperationException("ThreadComm: alltoallv");
    }

    @Override
    public void abort(int status) {
        throw new UnsupportedOperationException("ThreadComm: abort(" + status + ")");
    }
}
