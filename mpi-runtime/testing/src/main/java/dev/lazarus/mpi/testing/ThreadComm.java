package dev.lazarus.mpi.testing;

import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.ElementType;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.mpi.spi.AbstractComm;
import dev.lazarus.mpi.spi.Buffers;
import dev.lazarus.mpi.spi.PendingOperation;
import dev.lazarus.mpi.spi.Reductions;

import java.util.ArrayList;
import java.util.Iterator;
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
 * An in-process {@link Comm} for tests: every rank is a thread and messages are copied between arrays, so kernels
 * can run on several ranks without MPI. Sends are buffered; collectives meet at a barrier. Slow and simple.
 *
 * <p>A unit-test stand-in only: it exercises the kernels' decompositions in one JVM. Real MPI runs are the
 * integration tests in {@code coordinator}.
 */
public final class ThreadComm extends AbstractComm {
    private static final long TIMEOUT_SECONDS = 60;

    private final World world;

    private ThreadComm(World world, int rank) {
        super(rank, world.size);
        this.world = world;
    }

    /** What each rank runs. */
    @FunctionalInterface
    public interface RankBody<R> {
        R run(Comm comm) throws Exception;
    }

    /**
     * Runs {@code body} on {@code size} ranks, each in its own thread, and returns each rank's result in rank order.
     *
     * @throws Exception the first failing rank's exception, unwrapped
     */
    public static <R> List<R> run(int size, RankBody<R> body) throws Exception {
        World world = new World(size);
        ExecutorService pool = Executors.newFixedThreadPool(size);
        try {
            List<Future<R>> futures = new ArrayList<>();
            for (int r = 0; r < size; r++) {
                ThreadComm comm = new ThreadComm(world, r);
                futures.add(pool.submit(() -> body.run(comm)));
            }
            List<R> results = new ArrayList<>();
            for (Future<R> future : futures) {
                try {
                    results.add(future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof Exception cause ? cause : e;
                }
            }
            return results;
        } finally {
            // Every rank thread must be gone (and have closed its heap) before the caller goes on, as every rank
            // process is gone when a job ends.
            pool.shutdownNow();
            if (!pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("rank threads still run " + TIMEOUT_SECONDS + " s after the job ended");
            }
        }
    }

    @Override
    public String backend() {
        return "threads";
    }

    @Override
    public void abort(int status) {
        throw new IllegalStateException("abort(" + status + ")");
    }

    // ---- point to point -------------------------------------------------------------------------------------------

    @Override
    protected void doSend(Object buf, int offset, int count, ElementType type, int dest, int tag) {
        world.post(dest, new Message(rank(), tag, Buffers.copyOf(buf, offset, count, type), count));
    }

    @Override
    protected int doRecv(Object buf, int offset, int count, ElementType type, int source, int tag) {
        Message message = world.take(rank(), source, tag, true);
        return deliver(message, buf, offset, count, type);
    }

    @Override
    protected PendingOperation doIsend(Object buf, int offset, int count, ElementType type, int dest, int tag) {
        doSend(buf, offset, count, type, dest, tag);
        return new PendingOperation() {
            @Override
            public int await() {
                return count;
            }

            @Override
            public int poll() {
                return count;
            }
        };
    }

    @Override
    protected PendingOperation doIrecv(Object buf, int offset, int count, ElementType type, int source, int tag) {
        return new PendingOperation() {
            private int received = -1;

            @Override
            public int await() {
                if (received < 0) {
                    received = deliver(world.take(rank(), source, tag, true), buf, offset, count, type);
                }
                return received;
            }

            @Override
            public int poll() {
                if (received < 0) {
                    Message message = world.take(rank(), source, tag, false);
                    if (message != null) {
                        received = deliver(message, buf, offset, count, type);
                    }
                }
                return received;
            }
        };
    }

    @Override
    protected int doSendrecv(Object sendBuf, int sendOffset, int sendCount, int dest, int sendTag,
                             Object recvBuf, int recvOffset, int recvCount, int source, int recvTag,
                             ElementType type) {
        doSend(sendBuf, sendOffset, sendCount, type, dest, sendTag);
        return doRecv(recvBuf, recvOffset, recvCount, type, source, recvTag);
    }

    private static int deliver(Message message, Object buf, int offset, int count, ElementType type) {
        if (message.count > count) {
            throw new IllegalStateException("message of " + message.count + " elements, buffer of " + count);
        }
        Buffers.copy(message.data, 0, buf, offset, message.count, type);
        return message.count;
    }

    // ---- collectives ----------------------------------------------------------------------------------------------

    @Override
    protected void doBarrier() {
        world.exchange(rank(), null);
    }

    @Override
    protected void doBcast(Object buf, int offset, int count, ElementType type, int root) {
        Object[] all = world.exchange(rank(), rank() == root ? Buffers.copyOf(buf, offset, count, type) : null);
        Buffers.copy(all[root], 0, buf, offset, count, type);
    }

    @Override
    protected void doReduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                            ElementType type, ReduceOp op, int root) {
        Object[] all = world.exchange(rank(), Buffers.copyOf(sendBuf, sendOffset, count, type));
        if (rank() == root) {
            Buffers.copy(combine(all, count, type, op), 0, recvBuf, recvOffset, count, type);
        }
    }

    @Override
    protected void doAllreduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                               ElementType type, ReduceOp op) {
        Object[] all = world.exchange(rank(), Buffers.copyOf(sendBuf, sendOffset, count, type));
        Buffers.copy(combine(all, count, type, op), 0, recvBuf, recvOffset, count, type);
    }

    @Override
    protected void doGather(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                            ElementType type, int root) {
        Object[] all = world.exchange(rank(), Buffers.copyOf(sendBuf, sendOffset, count, type));
        if (rank() == root) {
            for (int r = 0; r < size(); r++) {
                Buffers.copy(all[r], 0, recvBuf, recvOffset + r * count, count, type);
            }
        }
    }

    @Override
    protected void doAllgather(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                               ElementType type) {
        Object[] all = world.exchange(rank(), Buffers.copyOf(sendBuf, sendOffset, count, type));
        for (int r = 0; r < size(); r++) {
            Buffers.copy(all[r], 0, recvBuf, recvOffset + r * count, count, type);
        }
    }

    @Override
    protected void doAlltoall(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                              ElementType type) {
        Object[] all = world.exchange(rank(), Buffers.copyOf(sendBuf, sendOffset, count * size(), type));
        for (int r = 0; r < size(); r++) {
            Buffers.copy(all[r], rank() * count, recvBuf, recvOffset + r * count, count, type);
        }
    }

    @Override
    protected void doAlltoallv(Object sendBuf, int sendOffset, int[] sendCounts, int[] sendDispls,
                               Object recvBuf, int recvOffset, int[] recvCounts, int[] recvDispls,
                               ElementType type) {
        int extent = 0;
        for (int r = 0; r < size(); r++) {
            extent = Math.max(extent, sendDispls[r] + sendCounts[r]);
        }
        Object[] mine = {Buffers.copyOf(sendBuf, sendOffset, extent, type), sendCounts.clone(), sendDispls.clone()};
        Object[] all = world.exchange(rank(), mine);
        for (int r = 0; r < size(); r++) {
            Object[] theirs = (Object[]) all[r];
            int count = ((int[]) theirs[1])[rank()];
            int displ = ((int[]) theirs[2])[rank()];
            if (count != recvCounts[r]) {
                throw new IllegalStateException("rank " + r + " sends " + count + ", rank " + rank()
                        + " expects " + recvCounts[r]);
            }
            Buffers.copy(theirs[0], displ, recvBuf, recvOffset + recvDispls[r], count, type);
        }
    }

    /** Combines the ranks' contributions in rank order. */
    private static Object combine(Object[] all, int count, ElementType type, ReduceOp op) {
        Object acc = Buffers.copyOf(all[0], 0, count, type);
        for (int r = 1; r < all.length; r++) {
            Reductions.combineInto(op, all[r], 0, acc, 0, count);
        }
        return acc;
    }

    private record Message(int source, int tag, Object data, int count) {
    }

    /** What the ranks of one run share: collective slots and one mailbox per rank. */
    private static final class World {
        final int size;
        final CyclicBarrier barrier;
        final Object[] slots;
        final List<List<Message>> mailboxes = new ArrayList<>();

        World(int size) {
            this.size = size;
            this.barrier = new CyclicBarrier(size);
            this.slots = new Object[size];
            for (int r = 0; r < size; r++) {
                mailboxes.add(new ArrayList<>());
            }
        }

        /** Every rank hands in its contribution and gets everyone's; returns after all have read. */
        Object[] exchange(int rank, Object contribution) {
            slots[rank] = contribution;
            await();
            Object[] all = slots.clone();
            await();
            return all;
        }

        private void await() {
            try {
                barrier.await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } catch (BrokenBarrierException | TimeoutException e) {
                throw new IllegalStateException("collective did not complete", e);
            }
        }

        void post(int dest, Message message) {
            List<Message> box = mailboxes.get(dest);
            synchronized (box) {
                box.add(message);
                box.notifyAll();
            }
        }

        /** The first message for {@code rank} matching source and tag; waits for one if {@code block}. */
        Message take(int rank, int source, int tag, boolean block) {
            List<Message> box = mailboxes.get(rank);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
            synchronized (box) {
                while (true) {
                    for (Iterator<Message> it = box.iterator(); it.hasNext(); ) {
                        Message message = it.next();
                        if ((source == ANY_SOURCE || message.source == source)
                                && (tag == ANY_TAG || message.tag == tag)) {
                            it.remove();
                            return message;
                        }
                    }
                    long left = deadline - System.nanoTime();
                    if (!block) {
                        return null;
                    }
                    if (left <= 0) {
                        throw new IllegalStateException("rank " + rank + ": no message from " + source);
                    }
                    try {
                        box.wait(TimeUnit.NANOSECONDS.toMillis(left) + 1);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                }
            }
        }
    }
}
