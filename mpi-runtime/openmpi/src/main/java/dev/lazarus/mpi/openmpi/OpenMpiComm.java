package dev.lazarus.mpi.openmpi;

import dev.lazarus.mpi.ElementType;
import dev.lazarus.mpi.MpiException;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.mpi.spi.AbstractComm;
import dev.lazarus.mpi.spi.Buffers;
import dev.lazarus.mpi.spi.PendingOperation;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Request;
import mpi.Status;

import java.nio.Buffer;
import java.util.concurrent.locks.LockSupport;

/** {@link dev.lazarus.mpi.Comm} over an Open MPI intracommunicator. */
final class OpenMpiComm extends AbstractComm {
    /** The first sleep between two tests of an {@link #doIdleBarrier idle barrier}. */
    static final long IDLE_FIRST_NANOS = 20_000;
    /** The longest sleep between two tests: the most an idle barrier lasts past the last rank's arrival. */
    static final long IDLE_MOST_NANOS = 1_000_000;

    private final Intracomm comm;

    OpenMpiComm(Intracomm comm) throws MPIException {
        super(comm.getRank(), comm.getSize());
        this.comm = comm;
    }

    @Override
    public String backend() {
        return "openmpi";
    }

    /** A call into the bindings; their checked exception is turned into {@link MpiException}. */
    @FunctionalInterface
    private interface Call<T> {
        T run() throws MPIException;
    }

    private static <T> T call(String op, Call<T> call) {
        try {
            return call.run();
        } catch (MPIException e) {
            throw new MpiException("openmpi: " + op + " failed: " + e.getMessage(), e);
        }
    }

    static Datatype datatype(ElementType type) {
        return switch (type) {
            case BYTE -> MPI.BYTE;
            case INT -> MPI.INT;
            case LONG -> MPI.LONG;
            case DOUBLE -> MPI.DOUBLE;
        };
    }

    private static Op op(ReduceOp op) {
        return switch (op) {
            case SUM -> MPI.SUM;
            case PROD -> MPI.PROD;
            case MAX -> MPI.MAX;
            case MIN -> MPI.MIN;
        };
    }

    private static int source(int source) {
        return source == ANY_SOURCE ? MPI.ANY_SOURCE : source;
    }

    private static int tag(int tag) {
        return tag == ANY_TAG ? MPI.ANY_TAG : tag;
    }

    @Override
    protected void doSend(Object buf, int offset, int count, ElementType type, int dest, int tag) {
        Transfer t = Transfer.toSend(buf, offset, count, type, false);
        call("send", () -> {
            comm.send(t.mpiBuffer(), count, datatype(type), dest, tag);
            return null;
        });
    }

    @Override
    protected int doRecv(Object buf, int offset, int count, ElementType type, int source, int tag) {
        Transfer t = Transfer.toReceive(buf, offset, count, type, false);
        int received = call("recv", () -> comm.recv(t.mpiBuffer(), count, datatype(type), source(source), tag(tag))
                .getCount(datatype(type)));
        t.finish(received);
        return received;
    }

    @Override
    protected PendingOperation doIsend(Object buf, int offset, int count, ElementType type, int dest, int tag) {
        Transfer t = Transfer.toSend(buf, offset, count, type, true);
        mpi.Request request = call("isend", () -> comm.iSend((Buffer) t.mpiBuffer(), count, datatype(type), dest, tag));
        return new Pending(request, t, count);
    }

    @Override
    protected PendingOperation doIrecv(Object buf, int offset, int count, ElementType type, int source, int tag) {
        Transfer t = Transfer.toReceive(buf, offset, count, type, true);
        mpi.Request request = call("irecv",
                () -> comm.iRecv((Buffer) t.mpiBuffer(), count, datatype(type), source(source), tag(tag)));
        return new Pending(request, t, -1);
    }

    @Override
    protected int doSendrecv(Object sendBuf, int sendOffset, int sendCount, int dest, int sendTag,
                             Object recvBuf, int recvOffset, int recvCount, int source, int recvTag,
                             ElementType type) {
        Transfer s = Transfer.toSend(sendBuf, sendOffset, sendCount, type, false);
        Transfer r = Transfer.toReceive(recvBuf, recvOffset, recvCount, type, false);
        Datatype dt = datatype(type);
        int received = call("sendrecv", () -> comm.sendRecv(s.mpiBuffer(), sendCount, dt, dest, sendTag,
                r.mpiBuffer(), recvCount, dt, source(source), tag(recvTag)).getCount(dt));
        r.finish(received);
        return received;
    }

    @Override
    protected void doBarrier() {
        call("barrier", () -> {
            comm.barrier();
            return null;
        });
    }

    /**
     * A nonblocking barrier tested with sleeps between the tests, growing from {@link #IDLE_FIRST_NANOS} to
     * {@link #IDLE_MOST_NANOS}: each test lets Open MPI progress the barrier, and the sleeps give the core away.
     */
    @Override
    protected void doIdleBarrier() {
        call("idle barrier", () -> {
            Request request = comm.iBarrier();
            long sleep = IDLE_FIRST_NANOS;
            while (!request.test()) {
                LockSupport.parkNanos(sleep);
                sleep = Math.min(2 * sleep, IDLE_MOST_NANOS);
            }
            return null; // a completed test released the request
        });
    }

    @Override
    protected void doBcast(Object buf, int offset, int count, ElementType type, int root) {
        Transfer t = Transfer.toUpdate(buf, offset, count, type);
        call("bcast", () -> {
            comm.bcast(t.mpiBuffer(), count, datatype(type), root);
            return null;
        });
        t.finish(count);
    }

    @Override
    protected void doReduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                            ElementType type, ReduceOp op, int root) {
        Transfer s = Transfer.toSend(sendBuf, sendOffset, count, type, false);
        Transfer r = Transfer.toReceive(recvBuf, recvOffset, count, type, false);
        call("reduce", () -> {
            comm.reduce(s.mpiBuffer(), r.mpiBuffer(), count, datatype(type), op(op), root);
            return null;
        });
        r.finish(count);
    }

    @Override
    protected void doAllreduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                               ElementType type, ReduceOp op) {
        Transfer s = Transfer.toSend(sendBuf, sendOffset, count, type, false);
        Transfer r = Transfer.toReceive(recvBuf, recvOffset, count, type, false);
        call("allreduce", () -> {
            comm.allReduce(s.mpiBuffer(), r.mpiBuffer(), count, datatype(type), op(op));
            return null;
        });
        r.finish(count);
    }

    @Override
    protected void doGather(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                            ElementType type, int root) {
        Transfer s = Transfer.toSend(sendBuf, sendOffset, count, type, false);
        int total = rank() == root ? count * size() : 0;
        Transfer r = Transfer.toReceive(recvBuf, recvOffset, total, type, false);
        Datatype dt = datatype(type);
        call("gather", () -> {
            comm.gather(s.mpiBuffer(), count, dt, r.mpiBuffer(), count, dt, root);
            return null;
        });
        r.finish(total);
    }

    @Override
    protected void doAllgather(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                               ElementType type) {
        Transfer s = Transfer.toSend(sendBuf, sendOffset, count, type, false);
        Transfer r = Transfer.toReceive(recvBuf, recvOffset, count * size(), type, false);
        Datatype dt = datatype(type);
        call("allgather", () -> {
            comm.allGather(s.mpiBuffer(), count, dt, r.mpiBuffer(), count, dt);
            return null;
        });
        r.finish(count * size());
    }

    /**
     * {@code MPI_Allgather} with {@code MPI_IN_PLACE}, on the buffer itself (an array or a native segment) or on a
     * staged copy of the whole receive range, which holds this rank's block too and is copied back after.
     */
    @Override
    protected void doAllgatherInPlace(Object buf, int offset, int count, ElementType type) {
        int total = count * size();
        Transfer r = Transfer.toUpdate(buf, offset, total, type);
        Datatype dt = datatype(type);
        call("allgather", () -> {
            comm.allGather(r.mpiBuffer(), count, dt);
            return null;
        });
        r.finish(total);
    }

    @Override
    protected void doAlltoall(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                              ElementType type) {
        Transfer s = Transfer.toSend(sendBuf, sendOffset, count * size(), type, false);
        Transfer r = Transfer.toReceive(recvBuf, recvOffset, count * size(), type, false);
        Datatype dt = datatype(type);
        call("alltoall", () -> {
            comm.allToAll(s.mpiBuffer(), count, dt, r.mpiBuffer(), count, dt);
            return null;
        });
        r.finish(count * size());
    }

    /**
     * Arrays always go through direct staging buffers here: Open MPI 4.1.4's bindings size their temporary copy of a
     * v-layout array as {@code displs[max] * counts[max]} instead of {@code +} ({@code getCountv} in mpi_MPI.c), which
     * overruns the heap for messages above 64 KiB. Direct buffers never take that path.
     */
    @Override
    protected void doAlltoallv(Object sendBuf, int sendOffset, int[] sendCounts, int[] sendDispls,
                               Object recvBuf, int recvOffset, int[] recvCounts, int[] recvDispls,
                               ElementType type) {
        Transfer s = Transfer.toSend(sendBuf, sendOffset, Buffers.extent(sendCounts, sendDispls), type, true);
        int recvExtent = Buffers.extent(recvCounts, recvDispls);
        Transfer r = Transfer.toReceive(recvBuf, recvOffset, recvExtent, type, true);
        Datatype dt = datatype(type);
        call("alltoallv", () -> {
            comm.allToAllv(s.mpiBuffer(), sendCounts, sendDispls, dt, r.mpiBuffer(), recvCounts, recvDispls, dt);
            return null;
        });
        r.finish(recvExtent);
    }

    @Override
    public void abort(int status) {
        call("abort", () -> {
            comm.abort(status);
            return null;
        });
    }

    /** A started isend/irecv; copies staged data back when a receive completes. */
    private static final class Pending implements PendingOperation {
        private final mpi.Request request;
        private final Transfer transfer;
        private final int sendCount;

        Pending(mpi.Request request, Transfer transfer, int sendCount) {
            this.request = request;
            this.transfer = transfer;
            this.sendCount = sendCount;
        }

        @Override
        public int await() {
            return completed(call("wait", request::waitStatus));
        }

        @Override
        public int poll() {
            Status status = call("test", request::testStatus);
            return status == null ? -1 : completed(status);
        }

        private int completed(Status status) {
            if (sendCount >= 0) {
                return sendCount;
            }
            int received = call("getCount", () -> status.getCount(datatype(transfer.type())));
            transfer.finish(received);
            return received;
        }
    }
}
