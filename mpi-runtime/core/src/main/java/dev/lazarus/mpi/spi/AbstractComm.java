package dev.lazarus.mpi.spi;

import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.ElementType;
import dev.lazarus.mpi.ReceiveHook;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.mpi.Request;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The backend-independent half of a {@link Comm}: argument validation, in-place handling and receive hooks. A
 * backend implements the {@code do*} methods, which receive already validated arguments and never see the receive
 * buffer aliased with the send buffer.
 */
public abstract class AbstractComm implements Comm {
    /** The largest tag every MPI implementation must accept. */
    public static final int MAX_TAG = 32767;

    private final int rank;
    private final int size;
    private volatile ReceiveHook[] hooks = new ReceiveHook[0];

    protected AbstractComm(int rank, int size) {
        this.rank = rank;
        this.size = size;
    }

    @Override
    public final int rank() {
        return rank;
    }

    @Override
    public final int size() {
        return size;
    }

    @Override
    public final synchronized void addReceiveHook(ReceiveHook hook) {
        if (hook == null) {
            throw new IllegalArgumentException("hook=null");
        }
        ReceiveHook[] grown = Arrays.copyOf(hooks, hooks.length + 1);
        grown[hooks.length] = hook;
        hooks = grown;
    }

    @Override
    public final synchronized boolean removeReceiveHook(ReceiveHook hook) {
        ReceiveHook[] current = hooks;
        for (int i = 0; i < current.length; i++) {
            if (current[i] == hook) {
                ReceiveHook[] shrunk = new ReceiveHook[current.length - 1];
                System.arraycopy(current, 0, shrunk, 0, i);
                System.arraycopy(current, i + 1, shrunk, i, current.length - i - 1);
                hooks = shrunk;
                return true;
            }
        }
        return false;
    }

    /** Tells every hook that {@code count} elements were written at element {@code offset} of {@code buffer}. */
    protected final void received(Object buffer, int offset, int count, ElementType type) {
        if (count <= 0) {
            return;
        }
        for (ReceiveHook hook : hooks) {
            hook.onReceive(buffer, type.bytes(offset), type.bytes(count));
        }
    }

    // ---- point to point -------------------------------------------------------------------------------------------

    @Override
    public final void send(Object buf, int offset, int count, ElementType type, int dest, int tag) {
        checkBuffer("send", buf, offset, count, type);
        checkPeer("send", "dest", dest, false);
        checkTag("send", tag, false);
        doSend(buf, offset, count, type, dest, tag);
    }

    @Override
    public final int recv(Object buf, int offset, int count, ElementType type, int source, int tag) {
        checkBuffer("recv", buf, offset, count, type);
        checkPeer("recv", "source", source, true);
        checkTag("recv", tag, true);
        int received = doRecv(buf, offset, count, type, source, tag);
        received(buf, offset, received, type);
        return received;
    }

    @Override
    public final Request isend(Object buf, int offset, int count, ElementType type, int dest, int tag) {
        checkBuffer("isend", buf, offset, count, type);
        checkPeer("isend", "dest", dest, false);
        checkTag("isend", tag, false);
        return new HookedRequest(doIsend(buf, offset, count, type, dest, tag), null, 0, type);
    }

    @Override
    public final Request irecv(Object buf, int offset, int count, ElementType type, int source, int tag) {
        checkBuffer("irecv", buf, offset, count, type);
        checkPeer("irecv", "source", source, true);
        checkTag("irecv", tag, true);
        return new HookedRequest(doIrecv(buf, offset, count, type, source, tag), buf, offset, type);
    }

    @Override
    public final int sendrecv(Object sendBuf, int sendOffset, int sendCount, int dest, int sendTag,
                              Object recvBuf, int recvOffset, int recvCount, int source, int recvTag,
                              ElementType type) {
        checkBuffer("sendrecv", sendBuf, sendOffset, sendCount, type);
        checkBuffer("sendrecv", recvBuf, recvOffset, recvCount, type);
        checkPeer("sendrecv", "dest", dest, false);
        checkPeer("sendrecv", "source", source, true);
        checkTag("sendrecv", sendTag, false);
        checkTag("sendrecv", recvTag, true);
        Object from = rangesOverlap(sendBuf, sendOffset, sendCount, recvBuf, recvOffset, recvCount, type)
                ? Buffers.copyOf(sendBuf, sendOffset, sendCount, type) : sendBuf;
        int fromOffset = from == sendBuf ? sendOffset : 0;
        int received = doSendrecv(from, fromOffset, sendCount, dest, sendTag,
                recvBuf, recvOffset, recvCount, source, recvTag, type);
        received(recvBuf, recvOffset, received, type);
        return received;
    }

    // ---- collectives ----------------------------------------------------------------------------------------------

    @Override
    public final void barrier() {
        doBarrier();
    }

    @Override
    public final void idleBarrier() {
        doIdleBarrier();
    }

    @Override
    public final void bcast(Object buf, int offset, int count, ElementType type, int root) {
        checkBuffer("bcast", buf, offset, count, type);
        checkPeer("bcast", "root", root, false);
        doBcast(buf, offset, count, type, root);
        if (rank != root) {
            received(buf, offset, count, type);
        }
    }

    @Override
    public final void reduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                             ElementType type, ReduceOp op, int root) {
        checkBuffer("reduce", sendBuf, sendOffset, count, type);
        checkPeer("reduce", "root", root, false);
        checkOp("reduce", op);
        boolean atRoot = rank == root;
        if (atRoot) {
            checkBuffer("reduce", recvBuf, recvOffset, count, type);
        }
        Object target = atRoot ? recvBuf : Buffers.newArray(type, count);
        int targetOffset = atRoot ? recvOffset : 0;
        Object from = atRoot && aliased(sendBuf, recvBuf) ? Buffers.copyOf(sendBuf, sendOffset, count, type) : sendBuf;
        doReduce(from, from == sendBuf ? sendOffset : 0, target, targetOffset, count, type, op, root);
        if (atRoot) {
            received(recvBuf, recvOffset, count, type);
        }
    }

    @Override
    public final void allreduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                                ElementType type, ReduceOp op) {
        checkBuffer("allreduce", sendBuf, sendOffset, count, type);
        checkBuffer("allreduce", recvBuf, recvOffset, count, type);
        checkOp("allreduce", op);
        Object from = aliased(sendBuf, recvBuf) ? Buffers.copyOf(sendBuf, sendOffset, count, type) : sendBuf;
        doAllreduce(from, from == sendBuf ? sendOffset : 0, recvBuf, recvOffset, count, type, op);
        received(recvBuf, recvOffset, count, type);
    }

    @Override
    public final void gather(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                             ElementType type, int root) {
        checkBuffer("gather", sendBuf, sendOffset, count, type);
        checkPeer("gather", "root", root, false);
        boolean atRoot = rank == root;
        int total = Math.multiplyExact(count, size);
        if (atRoot) {
            checkBuffer("gather", recvBuf, recvOffset, total, type);
        }
        Object target = atRoot ? recvBuf : Buffers.newArray(type, 0);
        Object from = atRoot && aliased(sendBuf, recvBuf) ? Buffers.copyOf(sendBuf, sendOffset, count, type) : sendBuf;
        doGather(from, from == sendBuf ? sendOffset : 0, count, target, atRoot ? recvOffset : 0, type, root);
        if (atRoot) {
            received(recvBuf, recvOffset, total, type);
        }
    }

    @Override
    public final void allgather(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                                ElementType type) {
        checkBuffer("allgather", sendBuf, sendOffset, count, type);
        int total = Math.multiplyExact(count, size);
        checkBuffer("allgather", recvBuf, recvOffset, total, type);
        if (sendBuf == recvBuf && sendOffset == recvOffset + (long) rank * count) {
            doAllgatherInPlace(recvBuf, recvOffset, count, type);
        } else {
            Object from = aliased(sendBuf, recvBuf) ? Buffers.copyOf(sendBuf, sendOffset, count, type) : sendBuf;
            doAllgather(from, from == sendBuf ? sendOffset : 0, count, recvBuf, recvOffset, type);
        }
        received(recvBuf, recvOffset, total, type);
    }

    @Override
    public final void alltoall(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                               ElementType type) {
        int total = Math.multiplyExact(count, size);
        checkBuffer("alltoall", sendBuf, sendOffset, total, type);
        checkBuffer("alltoall", recvBuf, recvOffset, total, type);
        Object from = aliased(sendBuf, recvBuf) ? Buffers.copyOf(sendBuf, sendOffset, total, type) : sendBuf;
        doAlltoall(from, from == sendBuf ? sendOffset : 0, count, recvBuf, recvOffset, type);
        received(recvBuf, recvOffset, total, type);
    }

    @Override
    public final void alltoallv(Object sendBuf, int sendOffset, int[] sendCounts, int[] sendDispls,
                                Object recvBuf, int recvOffset, int[] recvCounts, int[] recvDispls,
                                ElementType type) {
        int sendExtent = checkLayout("alltoallv", "send", sendBuf, sendOffset, sendCounts, sendDispls, type);
        checkLayout("alltoallv", "recv", recvBuf, recvOffset, recvCounts, recvDispls, type);
        Object from = sendBuf;
        int fromOffset = sendOffset;
        if (aliased(sendBuf, recvBuf)) {
            from = Buffers.copyOf(sendBuf, sendOffset, sendExtent, type);
            fromOffset = 0;
        }
        doAlltoallv(from, fromOffset, sendCounts, sendDispls, recvBuf, recvOffset, recvCounts, recvDispls, type);
        for (int i = 0; i < size; i++) {
            received(recvBuf, recvOffset + recvDispls[i], recvCounts[i], type);
        }
    }

    // ---- what a backend implements --------------------------------------------------------------------------------

    protected abstract void doSend(Object buf, int offset, int count, ElementType type, int dest, int tag);

    /** Returns the number of elements received. */
    protected abstract int doRecv(Object buf, int offset, int count, ElementType type, int source, int tag);

    protected abstract PendingOperation doIsend(Object buf, int offset, int count, ElementType type, int dest,
                                                int tag);

    protected abstract PendingOperation doIrecv(Object buf, int offset, int count, ElementType type, int source,
                                                int tag);

    /** Returns the number of elements received. */
    protected abstract int doSendrecv(Object sendBuf, int sendOffset, int sendCount, int dest, int sendTag,
                                      Object recvBuf, int recvOffset, int recvCount, int source, int recvTag,
                                      ElementType type);

    protected abstract void doBarrier();

    /** {@link Comm#idleBarrier()}; a backend that cannot wait without spinning keeps this default, a barrier. */
    protected void doIdleBarrier() {
        doBarrier();
    }

    protected abstract void doBcast(Object buf, int offset, int count, ElementType type, int root);

    protected abstract void doReduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                                     ElementType type, ReduceOp op, int root);

    protected abstract void doAllreduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                                        ElementType type, ReduceOp op);

    protected abstract void doGather(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                                     ElementType type, int root);

    protected abstract void doAllgather(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                                        ElementType type);

    /**
     * {@link #doAllgather} with this rank's block already in place, at {@code offset + rank * count} of {@code buf}
     * (MPI's {@code MPI_IN_PLACE}). By default it sends a copy of that block.
     */
    protected void doAllgatherInPlace(Object buf, int offset, int count, ElementType type) {
        int at = offset + rank * count;
        doAllgather(Buffers.copyOf(buf, at, count, type), 0, count, buf, offset, type);
    }

    protected abstract void doAlltoall(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                                       ElementType type);

    protected abstract void doAlltoallv(Object sendBuf, int sendOffset, int[] sendCounts, int[] sendDispls,
                                        Object recvBuf, int recvOffset, int[] recvCounts, int[] recvDispls,
                                        ElementType type);

    // ---- validation -----------------------------------------------------------------------------------------------

    private static void checkBuffer(String op, Object buf, int offset, int count, ElementType type) {
        if (type == null) {
            throw new IllegalArgumentException(op + ": type=null");
        }
        long capacity = type.capacity(buf);
        if (offset < 0 || count < 0 || (long) offset + count > capacity) {
            throw new IllegalArgumentException(op + ": offset=" + offset + " count=" + count
                    + " out of bounds for buffer capacity=" + capacity + " type=" + type);
        }
    }

    private void checkPeer(String op, String what, int peer, boolean anyAllowed) {
        if ((peer < 0 || peer >= size) && !(anyAllowed && peer == ANY_SOURCE)) {
            throw new IllegalArgumentException(op + ": " + what + "=" + peer + " is not a rank of size=" + size);
        }
    }

    private static void checkTag(String op, int tag, boolean anyAllowed) {
        if ((tag < 0 || tag > MAX_TAG) && !(anyAllowed && tag == ANY_TAG)) {
            throw new IllegalArgumentException(op + ": tag=" + tag + " must be in 0.." + MAX_TAG);
        }
    }

    private static void checkOp(String op, ReduceOp reduceOp) {
        if (reduceOp == null) {
            throw new IllegalArgumentException(op + ": op=null");
        }
    }

    /** Validates a v-layout and returns the extent (highest displacement plus count) it touches. */
    private int checkLayout(String op, String side, Object buf, int offset, int[] counts, int[] displs,
                            ElementType type) {
        if (counts == null || displs == null || counts.length != size || displs.length != size) {
            throw new IllegalArgumentException(op + ": " + side + " counts and displacements need size=" + size
                    + " entries each");
        }
        int extent = 0;
        for (int i = 0; i < size; i++) {
            if (counts[i] < 0 || displs[i] < 0) {
                throw new IllegalArgumentException(op + ": " + side + "Counts[" + i + "]=" + counts[i]
                        + " " + side + "Displs[" + i + "]=" + displs[i] + " must not be negative");
            }
            extent = Math.max(extent, Math.addExact(displs[i], counts[i]));
        }
        checkBuffer(op, buf, offset, extent, type);
        return extent;
    }

    /**
     * Whether element range {@code [aOffset, aOffset + aCount)} of {@code a} and {@code [bOffset, bOffset + bCount)}
     * of {@code b} share memory. A sendrecv between disjoint ranges of one buffer (a halo exchange from a grid's edge
     * rows into its ghost rows) goes to MPI as it is: solver.HEAT copied its edge rows twice per iteration before.
     */
    private static boolean rangesOverlap(Object a, int aOffset, int aCount, Object b, int bOffset, int bCount,
                                         ElementType type) {
        if (aCount == 0 || bCount == 0) {
            return false;
        }
        if (a == b) {
            return aOffset < bOffset + bCount && bOffset < aOffset + aCount;
        }
        return a instanceof MemorySegment sa && b instanceof MemorySegment sb
                && sa.asSlice(type.bytes(aOffset), type.bytes(aCount))
                .asOverlappingSlice(sb.asSlice(type.bytes(bOffset), type.bytes(bCount))).isPresent();
    }

    private static boolean aliased(Object a, Object b) {
        if (a == b) {
            return true;
        }
        return a instanceof MemorySegment sa && b instanceof MemorySegment sb
                && sa.asOverlappingSlice(sb).isPresent();
    }

    /** A request that runs the receive hooks once, when a receive completes. */
    private final class HookedRequest implements Request {
        private final PendingOperation pending;
        private final Object recvBuf;
        private final int recvOffset;
        private final ElementType type;
        private boolean done;

        HookedRequest(PendingOperation pending, Object recvBuf, int recvOffset, ElementType type) {
            this.pending = pending;
            this.recvBuf = recvBuf;
            this.recvOffset = recvOffset;
            this.type = type;
        }

        @Override
        public void waitFor() {
            if (!done) {
                complete(pending.await());
            }
        }

        @Override
        public boolean test() {
            if (!done) {
                int count = pending.poll();
                if (count >= 0) {
                    complete(count);
                }
            }
            return done;
        }

        private void complete(int count) {
            done = true;
            if (recvBuf != null) {
                received(recvBuf, recvOffset, count, type);
            }
        }
    }
}
