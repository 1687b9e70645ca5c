package dev.lazarus.mpi.local;

import dev.lazarus.mpi.ElementType;
import dev.lazarus.mpi.MpiException;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.mpi.spi.AbstractComm;
import dev.lazarus.mpi.spi.Buffers;
import dev.lazarus.mpi.spi.PendingOperation;

import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * A world of one rank in this process. Collectives copy the send range to the receive range (every reduction of one
 * contribution is that contribution); point-to-point messages to itself are buffered in order, so a rank may send
 * to itself before it receives, as a periodic halo exchange on one rank does.
 */
public final class SingleRankComm extends AbstractComm {
    private final ArrayDeque<Message> mailbox = new ArrayDeque<>();

    private record Message(int tag, Object data, int count, ElementType type) {
    }

    public SingleRankComm() {
        super(0, 1);
    }

    @Override
    public String backend() {
        return "single-rank";
    }

    @Override
    public void abort(int status) {
        throw new MpiException("single-rank job aborted with status " + status);
    }

    @Override
    protected void doSend(Object buf, int offset, int count, ElementType type, int dest, int tag) {
        mailbox.addLast(new Message(tag, Buffers.copyOf(buf, offset, count, type), count, type));
    }

    @Override
    protected int doRecv(Object buf, int offset, int count, ElementType type, int source, int tag) {
        for (Iterator<Message> it = mailbox.iterator(); it.hasNext(); ) {
            Message m = it.next();
            if (tag == ANY_TAG || m.tag == tag) {
                if (m.type != type || m.count > count) {
                    throw new MpiException("single-rank recv: message of " + m.count + " " + m.type
                            + " does not fit count=" + count + " type=" + type);
                }
                it.remove();
                Buffers.copy(m.data, 0, buf, offset, m.count, type);
                return m.count;
            }
        }
        throw new MpiException("single-rank recv: no message with tag=" + tag + " was sent (it would wait forever)");
    }

    @Override
    protected PendingOperation doIsend(Object buf, int offset, int count, ElementType type, int dest, int tag) {
        doSend(buf, offset, count, type, dest, tag);
        return done(count);
    }

    @Override
    protected PendingOperation doIrecv(Object buf, int offset, int count, ElementType type, int source, int tag) {
        // Matched when waited for, so that a send posted after the receive is still found.
        return new PendingOperation() {
            private int received = -1;

            @Override
            public int await() {
                if (received < 0) {
                    received = doRecv(buf, offset, count, type, source, tag);
                }
                return received;
            }

            @Override
            public int poll() {
                return mailbox.stream().anyMatch(m -> tag == ANY_TAG || m.tag == tag) || received >= 0 ? await() : -1;
            }
        };
    }

    private static PendingOperation done(int count) {
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
    protected int doSendrecv(Object sendBuf, int sendOffset, int sendCount, int dest, int sendTag,
                             Object recvBuf, int recvOffset, int recvCount, int source, int recvTag,
                             ElementType type) {
        doSend(sendBuf, sendOffset, sendCount, type, dest, sendTag);
        return doRecv(recvBuf, recvOffset, recvCount, type, source, recvTag);
    }

    @Override
    protected void doBarrier() {
    }

    @Override
    protected void doBcast(Object buf, int offset, int count, ElementType type, int root) {
    }

    @Override
    protected void doReduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                            ElementType type, ReduceOp op, int root) {
        Buffers.copy(sendBuf, sendOffset, recvBuf, recvOffset, count, type);
    }

    @Override
    protected void doAllreduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                               ElementType type, ReduceOp op) {
        Buffers.copy(sendBuf, sendOffset, recvBuf, recvOffset, count, type);
    }

    @Override
    protected void doGather(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                            ElementType type, int root) {
        Buffers.copy(sendBuf, sendOffset, recvBuf, recvOffset, count, type);
    }

    @Override
    protected void doAllgather(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                               ElementType type) {
        Buffers.copy(sendBuf, sendOffset, recvBuf, recvOffset, count, type);
    }

    @Override
    protected void doAlltoall(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                              ElementType type) {
        Buffers.copy(sendBuf, sendOffset, recvBuf, recvOffset, count, type);
    }

    @Override
    protected void doAlltoallv(Object sendBuf, int sendOffset, int[] sendCounts, int[] sendDispls,
                               Object recvBuf, int recvOffset, int[] recvCounts, int[] recvDispls,
                               ElementType type) {
        Buffers.copy(sendBuf, sendOffset + sendDispls[0], recvBuf, recvOffset + recvDispls[0], recvCounts[0], type);
    }
}
