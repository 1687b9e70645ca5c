package dev.lazarus.mpi.mpj;

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
import mpi.Status;

import java.security.SecureRandom;

/** {@link dev.lazarus.mpi.Comm} over an MPJ Express intracommunicator. */
final class MpjComm extends AbstractComm {
    private final Intracomm comm;
    /** Staging arrays of the blocking calls, kept between calls. */
    private final StagingArrays staging = new StagingArrays();
    /** Allreduce, allgather, alltoall and alltoallv among the rank threads of this JVM, or {@code null}: MPJ. */
    private final RankThreadCollectives rankThreads;

    /**
     * The system property that turns {@link RankThreadCollectives} off ({@code false}): every collective then goes
     * through MPJ.
     */
    static final String RANK_THREAD_COLLECTIVES = "lazarus.mpj.rankThreadCollectives";

    MpjComm(Intracomm comm) throws MPIException {
        super(comm.Rank(), comm.Size());
        this.comm = comm;
        boolean wanted = Boolean.parseBoolean(System.getProperty(RANK_THREAD_COLLECTIVES, "true"));
        this.rankThreads = wanted && size() > 1 ? joinRankThreads(comm, rank(), size()) : null;
    }

    /**
     * The collectives among this job's rank threads, if every rank is a thread of this JVM (MPJ's multicore device),
     * else {@code null}. Collective over {@code comm}: rank 0 draws the job's key, every rank joins the state kept
     * under it, and the ranks agree through MPJ that all of them found the same one.
     */
    private static RankThreadCollectives joinRankThreads(Intracomm comm, int rank, int size) throws MPIException {
        long[] nonce = {rank == 0 ? new SecureRandom().nextLong() : 0};
        comm.Bcast(nonce, 0, 1, MPI.LONG, 0);
        String key = "dev.lazarus.mpj.rank-thread-collectives." + Long.toHexString(nonce[0]);
        Object[] shared = RankThreadCollectives.join(key, size);
        comm.Barrier(); // every rank has joined what it found
        int[] joined = {RankThreadCollectives.joined(shared)};
        int[] fewest = new int[1];
        comm.Allreduce(joined, 0, fewest, 0, 1, MPI.INT, MPI.MIN);
        if (rank == 0) {
            System.getProperties().remove(key); // every rank holds the state by now
        }
        return fewest[0] == size ? new RankThreadCollectives(rank, size, shared) : null;
    }

    @Override
    public String backend() {
        return "mpj";
    }

    /** A call into MPJ; its checked exception is turned into {@link MpiException}. */
    @FunctionalInterface
    private interface Call<T> {
        T run() throws MPIException;
    }

    private static <T> T call(String op, Call<T> call) {
        try {
            return call.run();
        } catch (MPIException e) {
            throw new MpiException("mpj: " + op + " failed: " + e.getMessage(), e);
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
        try (ArrayTransfer t = ArrayTransfer.toSend(buf, offset, count, type, false, staging)) {
            call("send", () -> {
                comm.Send(t.array(), t.offset(), count, datatype(type), dest, tag);
                return null;
            });
        }
    }

    @Override
    protected int doRecv(Object buf, int offset, int count, ElementType type, int source, int tag) {
        try (ArrayTransfer t = ArrayTransfer.toReceive(buf, offset, count, type, false, staging)) {
            int received = call("recv", () -> comm.Recv(t.array(), t.offset(), count, datatype(type),
                    source(source), tag(tag)).Get_count(datatype(type)));
            t.finish(received);
            return received;
        }
    }

    @Override
    protected PendingOperation doIsend(Object buf, int offset, int count, ElementType type, int dest, int tag) {
        ArrayTransfer t = ArrayTransfer.toSend(buf, offset, count, type);
        mpi.Request request = call("isend",
                () -> comm.Isend(t.array(), t.offset(), count, datatype(type), dest, tag));
        return new Pending(request, t, count);
    }

    @Override
    protected PendingOperation doIrecv(Object buf, int offset, int count, ElementType type, int source, int tag) {
        ArrayTransfer t = ArrayTransfer.toReceive(buf, offset, count, type);
        mpi.Request request = call("irecv",
                () -> comm.Irecv(t.array(), t.offset(), count, datatype(type), source(source), tag(tag)));
        return new Pending(request, t, -1);
    }

    @Override
    protected int doSendrecv(Object sendBuf, int sendOffset, int sendCount, int dest, int sendTag,
                             Object recvBuf, int recvOffset, int recvCount, int source, int recvTag,
                             ElementType type) {
        Datatype dt = datatype(type);
        try (ArrayTransfer s = ArrayTransfer.toSend(sendBuf, sendOffset, sendCount, type, false, staging);
             ArrayTransfer r = ArrayTransfer.toReceive(recvBuf, recvOffset, recvCount, type, false, staging)) {
            int received = call("sendrecv", () -> comm.Sendrecv(s.array(), s.offset(), sendCount, dt, dest,
                    sendTag, r.array(), r.offset(), recvCount, dt, source(source), tag(recvTag)).Get_count(dt));
            r.finish(received);
            return received;
        }
    }

    @Override
    protected void doBarrier() {
        call("barrier", () -> {
            comm.Barrier();
            return null;
        });
    }

    @Override
    protected void doBcast(Object buf, int offset, int count, ElementType type, int root) {
        try (ArrayTransfer t = ArrayTransfer.toUpdate(buf, offset, count, type, staging)) {
            call("bcast", () -> {
                comm.Bcast(t.array(), t.offset(), count, datatype(type), root);
                return null;
            });
            t.finish(count);
        }
    }

    @Override
    protected void doReduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                            ElementType type, ReduceOp op, int root) {
        try (ArrayTransfer s = ArrayTransfer.toSend(sendBuf, sendOffset, count, type, true, staging);
             ArrayTransfer r = ArrayTransfer.toReceive(recvBuf, recvOffset, count, type, true, staging)) {
            call("reduce", () -> {
                comm.Reduce(s.array(), s.offset(), r.array(), r.offset(), count, datatype(type), op(op), root);
                return null;
            });
            r.finish(count);
        }
    }

    @Override
    protected void doAllreduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                               ElementType type, ReduceOp op) {
        try (ArrayTransfer s = ArrayTransfer.toSend(sendBuf, sendOffset, count, type, true, staging);
             ArrayTransfer r = ArrayTransfer.toReceive(recvBuf, recvOffset, count, type, true, staging)) {
            if (rankThreads != null) {
                rankThreads.allreduce(s.array(), s.offset(), r.array(), r.offset(), count, op);
                r.finish(count);
                return;
            }
            call("allreduce", () -> {
                comm.Allreduce(s.array(), s.offset(), r.array(), r.offset(), count, datatype(type), op(op));
                return null;
            });
            r.finish(count);
        }
    }

    @Override
    protected void doGather(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                            ElementType type, int root) {
        int total = count * size();
        // MPJ 0.44 copies into the receive buffer on every rank, so non-root ranks get a full-size scratch array.
        Object target = rank() == root ? recvBuf : Buffers.newArray(type, total);
        Datatype dt = datatype(type);
        try (ArrayTransfer s = ArrayTransfer.toSend(sendBuf, sendOffset, count, type, true, staging);
             ArrayTransfer r = ArrayTransfer.toReceive(target, rank() == root ? recvOffset : 0, total, type, true,
                     staging)) {
            call("gather", () -> {
                comm.Gather(s.array(), s.offset(), count, dt, r.array(), r.offset(), count, dt, root);
                return null;
            });
            r.finish(total);
        }
    }

    @Override
    protected void doAllgather(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                               ElementType type) {
        if (rankThreads != null) {
            rankThreads.allgather(Buffers.unwrap(sendBuf, type), sendOffset, count, Buffers.unwrap(recvBuf, type),
                    recvOffset, type);
            return;
        }
        Datatype dt = datatype(type);
        try (ArrayTransfer s = ArrayTransfer.toSend(sendBuf, sendOffset, count, type, true, staging);
             ArrayTransfer r = ArrayTransfer.toReceive(recvBuf, recvOffset, count * size(), type, true, staging)) {
            call("allgather", () -> {
                comm.Allgather(s.array(), s.offset(), count, dt, r.array(), r.offset(), count, dt);
                return null;
            });
            r.finish(count * size());
        }
    }

    @Override
    protected void doAllgatherInPlace(Object buf, int offset, int count, ElementType type) {
        if (rankThreads != null) {
            rankThreads.allgatherInPlace(Buffers.unwrap(buf, type), offset, count, type);
        } else {
            super.doAllgatherInPlace(buf, offset, count, type);
        }
    }

    @Override
    protected void doAlltoall(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                              ElementType type) {
        if (size() == 1) { // a copy, as in copyToSelf
            Buffers.copy(sendBuf, sendOffset, recvBuf, recvOffset, count, type);
            return;
        }
        if (rankThreads != null) {
            rankThreads.alltoall(Buffers.unwrap(sendBuf, type), sendOffset, count, Buffers.unwrap(recvBuf, type),
                    recvOffset, type);
            return;
        }
        Datatype dt = datatype(type);
        try (ArrayTransfer s = ArrayTransfer.toSend(sendBuf, sendOffset, count * size(), type, false, staging);
             ArrayTransfer r = ArrayTransfer.toReceive(recvBuf, recvOffset, count * size(), type, false, staging)) {
            call("alltoall", () -> {
                comm.Alltoall(s.array(), s.offset(), count, dt, r.array(), r.offset(), count, dt);
                return null;
            });
            r.finish(count * size());
        }
    }

    @Override
    protected void doAlltoallv(Object sendBuf, int sendOffset, int[] sendCounts, int[] sendDispls,
                               Object recvBuf, int recvOffset, int[] recvCounts, int[] recvDispls,
                               ElementType type) {
        if (size() == 1) {
            copyToSelf(sendBuf, sendOffset + sendDispls[0], sendCounts[0], recvBuf, recvOffset + recvDispls[0],
                    recvCounts[0], type);
            return;
        }
        if (rankThreads != null) {
            rankThreads.alltoallv(Buffers.unwrap(sendBuf, type), sendOffset, sendCounts, sendDispls,
                    Buffers.unwrap(recvBuf, type), recvOffset, recvCounts, recvDispls, type);
            return;
        }
        int recvExtent = Buffers.extent(recvCounts, recvDispls);
        Datatype dt = datatype(type);
        try (ArrayTransfer s = ArrayTransfer.toSend(sendBuf, sendOffset, Buffers.extent(sendCounts, sendDispls), type,
                false, staging);
             ArrayTransfer r = ArrayTransfer.toReceive(recvBuf, recvOffset, recvExtent, type, false, staging)) {
            call("alltoallv", () -> {
                comm.Alltoallv(s.array(), s.offset(), sendCounts, sendDispls, dt,
                        r.array(), r.offset(), recvCounts, recvDispls, dt);
                return null;
            });
            r.finish(recvExtent);
        }
    }

    /**
     * A one-rank exchange, as a copy. Through MPJ a segment's data was copied three times (into a staging array, by
     * MPJ, back into the segment): IS class A on one rank exchanges 32 MB per iteration this way.
     */
    private static void copyToSelf(Object sendBuf, int sendAt, int sendCount, Object recvBuf, int recvAt,
                                   int recvCount, ElementType type) {
        if (sendCount != recvCount) {
            throw new IllegalArgumentException("alltoallv on one rank: sendCounts[0]=" + sendCount
                    + " recvCounts[0]=" + recvCount + " must be equal");
        }
        Buffers.copy(sendBuf, sendAt, recvBuf, recvAt, sendCount, type);
    }

    /**
     * Aborts the job. MPJ 0.44's Abort does not stop the other ranks of a multicore job, and they share this JVM, so
     * the JVM is halted as well: that is exactly "every rank ends now".
     */
    @Override
    public void abort(int status) {
        try {
            comm.Abort(status);
        } catch (RuntimeException e) { // MPJ's MPIException is unchecked
            System.err.println("mpj: Abort failed (" + e + "); halting the JVM");
        }
        Runtime.getRuntime().halt(status == 0 ? 1 : status);
    }

    /** A started Isend/Irecv; copies staged data back when a receive completes. */
    private static final class Pending implements PendingOperation {
        private final mpi.Request request;
        private final ArrayTransfer transfer;
        private final int sendCount;

        Pending(mpi.Request request, ArrayTransfer transfer, int sendCount) {
            this.request = request;
            this.transfer = transfer;
            this.sendCount = sendCount;
        }

        @Override
        public int await() {
            return completed(call("wait", request::Wait));
        }

        @Override
        public int poll() {
            Status status = call("test", request::Test);
            return status == null ? -1 : completed(status);
        }

        private int completed(Status status) {
            if (sendCount >= 0) {
                return sendCount;
            }
            int received = call("getCount", () -> status.Get_count(datatype(transfer.type())));
            transfer.finish(received);
            return received;
        }
    }
}
