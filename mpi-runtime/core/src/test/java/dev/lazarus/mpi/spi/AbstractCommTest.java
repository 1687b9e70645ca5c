package dev.lazarus.mpi.spi;

import dev.lazarus.mpi.ElementType;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.mpi.Request;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The backend-independent half of Comm: validation messages, in-place handling and hook dispatch. The backend is a
 * recording stand-in (real MPI is exercised by the backends' integration tests).
 */
class AbstractCommTest {

    /** A one-rank "backend" that records what reached it and copies send to receive where MPI would. */
    private static final class RecordingComm extends AbstractComm {
        final List<String> calls = new ArrayList<>();
        Object lastSend;

        RecordingComm(int rank, int size) {
            super(rank, size);
        }

        @Override
        public String backend() {
            return "recording";
        }

        @Override
        public void abort(int status) {
            calls.add("abort " + status);
        }

        @Override
        protected void doSend(Object buf, int offset, int count, ElementType type, int dest, int tag) {
            calls.add("send");
        }

        @Override
        protected int doRecv(Object buf, int offset, int count, ElementType type, int source, int tag) {
            calls.add("recv");
            return count - 1;
        }

        @Override
        protected PendingOperation doIsend(Object buf, int offset, int count, ElementType type, int dest, int tag) {
            return new PendingOperation() {
                public int await() {
                    return count;
                }

                public int poll() {
                    return count;
                }
            };
        }

        @Override
        protected PendingOperation doIrecv(Object buf, int offset, int count, ElementType type, int source,
                                           int tag) {
            return new PendingOperation() {
                private int polls;

                public int await() {
                    return count;
                }

                public int poll() {
                    return ++polls < 2 ? -1 : count;
                }
            };
        }

        @Override
        protected int doSendrecv(Object sendBuf, int sendOffset, int sendCount, int dest, int sendTag,
                                 Object recvBuf, int recvOffset, int recvCount, int source, int recvTag,
                                 ElementType type) {
            lastSend = sendBuf;
            Buffers.copy(sendBuf, sendOffset, recvBuf, recvOffset, Math.min(sendCount, recvCount), type);
            return Math.min(sendCount, recvCount);
        }

        @Override
        protected void doBarrier() {
            calls.add("barrier");
        }

        @Override
        protected void doBcast(Object buf, int offset, int count, ElementType type, int root) {
            calls.add("bcast");
        }

        @Override
        protected void doReduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                                ElementType type, ReduceOp op, int root) {
            lastSend = sendBuf;
            Buffers.copy(sendBuf, sendOffset, recvBuf, recvOffset, count, type);
        }

        @Override
        protected void doAllreduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                                   ElementType type, ReduceOp op) {
            lastSend = sendBuf;
            Buffers.copy(sendBuf, sendOffset, recvBuf, recvOffset, count, type);
        }

        @Override
        protected void doGather(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                                ElementType type, int root) {
            calls.add("gather");
        }

        @Override
        protected void doAllgather(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                                   ElementType type) {
            calls.add("allgather");
        }

        @Override
        protected void doAlltoall(Object sendBuf, int sendOffset, int count, Object recvBuf, int recvOffset,
                                  ElementType type) {
            calls.add("alltoall");
        }

        @Override
        protected void doAlltoallv(Object sendBuf, int sendOffset, int[] sendCounts, int[] sendDispls,
                                   Object recvBuf, int recvOffset, int[] recvCounts, int[] recvDispls,
                                   ElementType type) {
            calls.add("alltoallv");
        }
    }

    private final List<String> seen = new ArrayList<>();

    private RecordingComm comm(int rank, int size) {
        RecordingComm comm = new RecordingComm(rank, size);
        comm.addReceiveHook((buffer, offset, length) -> seen.add(offset + "+" + length));
        return comm;
    }

    @Test
    void outOfBoundsRangeIsRefusedWithContext() {
        RecordingComm comm = comm(0, 2);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> comm.send(new double[4], 2, 3, 1, 0));
        assertEquals("send: offset=2 count=3 out of bounds for buffer capacity=4 type=DOUBLE", e.getMessage());
        assertTrue(comm.calls.isEmpty());
    }

    @Test
    void badRanksTagsAndTypesAreRefused() {
        RecordingComm comm = comm(0, 2);
        assertEquals("send: dest=2 is not a rank of size=2",
                assertThrows(IllegalArgumentException.class, () -> comm.send(new int[1], 0, 1, 2, 0)).getMessage());
        assertEquals("send: tag=-1 must be in 0..32767",
                assertThrows(IllegalArgumentException.class, () -> comm.send(new int[1], 0, 1, 1, -1)).getMessage());
        assertEquals("bcast: root=-1 is not a rank of size=2",
                assertThrows(IllegalArgumentException.class, () -> comm.bcast(new int[1], 0, 1, -1)).getMessage());
        assertEquals("a MemorySegment buffer needs an explicit ElementType",
                assertThrows(IllegalArgumentException.class,
                        () -> comm.send(MemorySegment.ofArray(new byte[8]), 0, 1, 1, 0)).getMessage());
        assertEquals("buffer type=java.lang.String does not hold elements of type=INT",
                assertThrows(IllegalArgumentException.class,
                        () -> comm.send("text", 0, 1, ElementType.INT, 1, 0)).getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> comm.alltoallv(new int[4], 0, new int[] {1}, new int[] {0}, new int[4], 0, new int[2],
                        new int[2]));
    }

    @Test
    void wildcardsAreAcceptedForReceivesOnly() {
        RecordingComm comm = comm(0, 2);
        comm.recv(new int[4], 0, 4, RecordingComm.ANY_SOURCE, RecordingComm.ANY_TAG);
        assertThrows(IllegalArgumentException.class, () -> comm.send(new int[1], 0, 1, RecordingComm.ANY_SOURCE, 0));
    }

    @Test
    void hooksSeeTheElementsActuallyReceivedInBytes() {
        RecordingComm comm = comm(0, 2);
        comm.recv(new long[10], 3, 5, 1, 0);
        assertEquals(List.of("24+32"), seen);
    }

    @Test
    void sendsAndRootOfBcastRunNoHooks() {
        RecordingComm root = comm(0, 2);
        root.send(new int[4], 0, 4, 1, 0);
        root.bcast(new int[4], 0, 4, 0);
        assertTrue(seen.isEmpty());
        comm(1, 2).bcast(new int[4], 1, 2, 0);
        assertEquals(List.of("4+8"), seen);
    }

    @Test
    void nonBlockingReceiveRunsHooksOnceOnCompletion() {
        RecordingComm comm = comm(0, 2);
        Request request = comm.irecv(new double[8], 2, 3, 1, 0);
        assertFalse(request.test());
        assertTrue(seen.isEmpty());
        assertTrue(request.test());
        request.waitFor();
        assertEquals(List.of("16+24"), seen);
    }

    @Test
    void inPlaceAllreduceCopiesTheSendDataFirst() {
        RecordingComm comm = comm(0, 1);
        double[] data = {1, 2, 3, 4};
        comm.allreduce(data, 1, data, 1, 2, ReduceOp.SUM);
        assertNotSame(data, comm.lastSend);
        assertArrayEquals(new double[] {1, 2, 3, 4}, data);
        assertEquals(List.of("8+16"), seen);
    }

    @Test
    void overlappingSegmentsCountAsInPlace() {
        RecordingComm comm = comm(0, 1);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment whole = arena.allocate(32);
            whole.setAtIndex(ValueLayout.JAVA_DOUBLE, 1, 5.0);
            comm.allreduce(whole, 1, whole.asSlice(8), 0, 1, ElementType.DOUBLE, ReduceOp.MAX);
            assertTrue(comm.lastSend instanceof double[]);
            assertEquals(5.0, whole.getAtIndex(ValueLayout.JAVA_DOUBLE, 1));
        }
    }

    /** Disjoint ranges of one buffer go to the backend as they are; overlapping ones from a copy of the send range. */
    @Test
    void sendrecvCopiesOnlyWhenTheRangesOverlap() {
        RecordingComm comm = comm(0, 1);
        double[] cells = {1, 2, 3, 4, 5, 6};
        comm.sendrecv(cells, 0, 2, 0, 1, cells, 4, 2, 0, 1, ElementType.DOUBLE);
        assertSame(cells, comm.lastSend);
        assertArrayEquals(new double[] {1, 2, 3, 4, 1, 2}, cells);

        comm.sendrecv(cells, 0, 3, 0, 1, cells, 2, 3, 0, 1, ElementType.DOUBLE);
        assertNotSame(cells, comm.lastSend);
        assertArrayEquals(new double[] {1, 2, 1, 2, 3, 2}, cells);

        try (Arena arena = Arena.ofConfined()) {
            MemorySegment grid = arena.allocate(6 * Double.BYTES);
            for (int i = 0; i < 6; i++) {
                grid.setAtIndex(ValueLayout.JAVA_DOUBLE, i, i + 1);
            }
            comm.sendrecv(grid, 1, 2, 0, 1, grid.asSlice(24), 0, 2, 0, 1, ElementType.DOUBLE);
            assertSame(grid, comm.lastSend);
            comm.sendrecv(grid, 1, 2, 0, 1, grid.asSlice(16), 0, 2, 0, 1, ElementType.DOUBLE);
            assertNotSame(grid, comm.lastSend);
            assertArrayEquals(new double[] {1, 2, 2, 3, 3, 6}, grid.toArray(ValueLayout.JAVA_DOUBLE));
        }
    }

    @Test
    void reduceRunsHooksAtRootOnly() {
        comm(1, 2).reduce(new int[2], 0, null, 0, 2, ReduceOp.SUM, 0);
        assertTrue(seen.isEmpty());
        comm(0, 2).reduce(new int[2], 0, new int[4], 2, 2, ReduceOp.SUM, 0);
        assertEquals(List.of("8+8"), seen);
    }

    @Test
    void alltoallvRunsOneHookPerNonEmptyBlock() {
        RecordingComm comm = comm(0, 3);
        comm.alltoallv(new int[6], 0, new int[] {1, 2, 3}, new int[] {0, 1, 3},
                new int[10], 1, new int[] {2, 0, 3}, new int[] {0, 4, 5});
        assertEquals(List.of("4+8", "24+12"), seen);
    }

    @Test
    void removedHooksAreNoLongerCalled() {
        RecordingComm comm = new RecordingComm(0, 1);
        List<String> mine = new ArrayList<>();
        dev.lazarus.mpi.ReceiveHook hook = (b, o, l) -> mine.add("x");
        comm.addReceiveHook(hook);
        assertTrue(comm.removeReceiveHook(hook));
        assertFalse(comm.removeReceiveHook(hook));
        comm.recv(new int[4], 0, 4, 0, 0);
        assertTrue(mine.isEmpty());
    }
}
