package dev.lazarus.npb.mg;

import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.ElementType;
import dev.lazarus.mpi.ReceiveHook;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.mpi.Request;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An in-process stand-in for MPI in tests: one thread per rank, sharing a world. It supports only what MG uses
 * (double sendrecv, allreduce, allgather, barrier); everything else throws {@link UnsupportedOperationException}.
 */
final class ThreadedComm implements Comm {

    /** State shared by the ranks of one world. */
    private static final class World {
        final int size;
        final CyclicBarrier barrier;
        final double[][] slots;
        final Map<String, BlockingQueue<double[]>> mail = new ConcurrentHashMap<>();

        World(int size) {
            this.size = size;
            this.barrier = new CyclicBarrier(size);
            this.slots = new double[size][];
        }

        BlockingQueue<double[]> box(int from, int to, int tag) {
            return mail.computeIfAbsent(from + ">" + to + "#" + tag, key -> new LinkedBlockingQueue<>());
        }

        void await() {
            try {
                barrier.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException | BrokenBarrierException | java.util.concurrent.TimeoutException e) {
                throw new IllegalStateException("barrier failed", e);
            }
        }
    }

    private final World world;
    private final int rank;

    private ThreadedComm(World world, int rank) {
        this.world = world;
        this.rank = rank;
    }

    /** Runs {@code body} on {@code size} threads, one per rank, and returns each rank's result in rank order. */
    static <T> List<T> run(int size, Body<T> body) throws Exception {
        World world = new World(size);
        ExecutorService pool = Executors.newFixedThreadPool(size);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                ThreadedComm comm = new ThreadedComm(world, i);
                futures.add(pool.submit(() -> body.run(comm)));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> f : futures) {
                try {
                    results.add(f.get(300, TimeUnit.SECONDS));
                } catch (ExecutionException e) {
                    // Surface the rank's own exception, as the launcher would report it.
                    if (e.getCause() instanceof Exception cause) {
                        throw cause;
                    }
                    throw e;
                }
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    /** What one rank does. */
    @FunctionalInterface
    interface Body<T> {
        T run(Comm comm) throws Exception;
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
    public int sendrecv(Object sendBuf, int sendOffset, int sendCount, int dest, int sendTag,
                        Object recvBuf, int recvOffset, int recvCount, int source, int recvTag, ElementType type) {
        double[] out = new double[sendCount];
        System.arraycopy((double[]) sendBuf, sendOffset, out, 0, sendCount);
        world.box(rank, dest, sendTag).add(out);
        try {
            double[] in = world.box(source, rank, recvTag).poll(60, TimeUnit.SECONDS);
            if (in == null || in.length > recvCount) {
                throw new IllegalStateException("sendrecv: no or oversized message from rank " + source);
            }
            System.arraycopy(in, 0, (double[]) recvBuf, recvOffset, in.length);
            return in.length;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void barrier() {
        world.await();
    }

    @Override
    public void allreduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                          ElementType type, ReduceOp op) {
        double[] mine = new double[count];
        System.arraycopy((double[]) sendBuf, sendOffset, mine, 0, count);
        world.slots[rank] = mine;
        world.await();
        double[] recv = (double[]) recvBuf;
        for (int i = 0; i < count; i++) {
            double acc = world.slots[0][i];
            for (int q = 1; q < world.size; q++) {
                double x = world.slots[q][i];
                acc = switch (op) {
                    case SUM -> acc + x;
                    case PROD -> acc * x;
                    case MAX -> Math.max(acc, x);
                    case MIN -> Math.min(acc, x);
                };
            }
            recv[recvOffset + i] = acc;
        }
        world.await();
    }

    @Override
    public void allgather(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                          ElementType type) {
        double[] mine = new double[count];
        System.arraycopy((double[]) sendBuf, sendOffset, mine, 0, count);
        world.slots[rank] = mine;
        world.await();
        for (int q = 0; q < world.size; q++) {
            System.arraycopy(world.slots[q], 0, (double[]) recvBuf, recvOffset + q * count, count);
        }
        world.await();
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
    public void bcast(Object buf, int offset, int count, ElementType type, int root) {
        throw new UnsupportedOperationException();
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
    public void alltoall(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                         ElementType type) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void alltoallv(Object sendBuf, int sendOffset, int[] sendCounts, int[] sendDispls, Object recvBuf,
                          int recvOffset, int[] recvCounts, int[] recvDispls, ElementType type) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void abort(int status) {
        throw new IllegalStateException("abort(" + status + ")");
    }
}
