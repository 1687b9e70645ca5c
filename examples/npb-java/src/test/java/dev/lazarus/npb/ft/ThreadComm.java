package dev.lazarus.npb.ft;

import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.ElementType;
import dev.lazarus.mpi.ReceiveHook;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.mpi.Request;

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
import java.util.function.Function;

/**
 * Test stand-in for MPI: ranks are threads of one JVM and the collectives FT uses (barrier, bcast, allreduce and
 * alltoall on {@code double[]}) are shared-memory copies between two barriers. Anything else is unsupported.
 */
final class ThreadComm implements Comm {
    private final int rank;
    private final World world;

    private static final class World {
        final int size;
        final CyclicBarrier barrier;
        final Object[] slots;

        World(int size) {
            this.size = size;
            this.barrier = new CyclicBarrier(size);
            this.slots = new Object[size];
        }

        void await() {
            try {
                barrier.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
                throw new IllegalStateException("rank barrier failed", e);
            }
        }
    }

    private ThreadComm(int rank, World world) {
        this.rank = rank;
        this.world = world;
    }

    /** Runs {@code body} on {@code size} thread ranks and returns each rank's result, in rank order. */
    static <T> List<T> runRanks(int size, Function<Comm, T> body) throws Exception {
        World world = new World(size);
        ExecutorService pool = Executors.newFixedThreadPool(size);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int r = 0; r < size; r++) {
                ThreadComm comm = new ThreadComm(r, world);
                futures.add(pool.submit(() -> body.apply(comm)));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> f : futures) {
                try {
                    results.add(f.get(300, TimeUnit.SECONDS));
                } catch (ExecutionException e) {
                    world.barrier.reset();
                    throw e;
                }
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return world.size;
    }

    @Override
    public String backend() {
        return "threads";
    }

    @Override
    public void addReceiveHook(ReceiveHook hook) {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean removeReceiveHook(ReceiveHook hook) {
        return false;
    }

    @Override
    public void barrier() {
        world.await();
    }

    @Override
    public void bcast(Object buf, int offset, int count, ElementType type, int root) {
        double[] b = (double[]) buf;
        if (rank == root) {
            world.slots[root] = b.clone();
        }
        world.await();
        if (rank != root) {
            System.arraycopy((double[]) world.slots[root], offset, b, offset, count);
        }
        world.await();
    }

    @Override
    public void allreduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                          ElementType type, ReduceOp op) {
        double[] mine = new double[count];
        System.arraycopy((double[]) sendBuf, sendOffset, mine, 0, count);
        world.slots[rank] = mine;
        world.await();
        double[] result = ((double[]) world.slots[0]).clone();
        for (int p = 1; p < world.size; p++) {
            double[] other = (double[]) world.slots[p];
            for (int i = 0; i < count; i++) {
                result[i] = switch (op) {
                    case SUM -> result[i] + other[i];
                    case PROD -> result[i] * other[i];
                    case MAX -> Math.max(result[i], other[i]);
                    case MIN -> Math.min(result[i], other[i]);
                };
            }
        }
        world.await();
        System.arraycopy(result, 0, (double[]) recvBuf, recvOffset, count);
    }

    @Override
    public void alltoall(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                         ElementType type) {
        world.slots[rank] = sendBuf;
        world.await();
        for (int p = 0; p < world.size; p++) {
            System.arraycopy((double[]) world.slots[p], sendOffset + rank * count,
                    (double[]) recvBuf, recvOffset + p * count, count);
        }
        world.await();
    }

    @Override
    public void reduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, ElementType type,
                       ReduceOp op, int root) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void gather(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset, ElementType type,
                       int root) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void allgather(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                          ElementType type) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void alltoallv(Object sendBuf, int sendOffset, int[] sendCounts, int[] sendDispls, Object recvBuf,
                          int recvOffset, int[] recvCounts, int[] recvDispls, ElementType type) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void send(Object buf, int offset, int count, ElementType type, int dest, int tag) {
        throw new UnsupportedOperationException();
    }

    @Override
    public int recv(Object buf, int offset, int count, ElementType type, int source, int tag) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Request isend(Object buf, int offset, int count, ElementType type, int dest, int tag) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Request irecv(Object buf, int offset, int count, ElementType type, int source, int tag) {
        throw new UnsupportedOperationException();
    }

    @Override
    public int sendrecv(Object sendBuf, int sendOffset, int sendCount, int dest, int sendTag, Object recvBuf,
                        int recvOffset, int recvCount, int source, int recvTag, ElementType type) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void abort(int status) {
        throw new IllegalStateException("abort(" + status + ")");
    }
}
