package dev.lazarus.coordinator.it;

import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.ElementType;
import dev.lazarus.mpi.MpiApplication;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.mpi.Request;
import dev.lazarus.mpi.spi.Buffers;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An MPI application that checks, on a real backend, that receive hooks see exactly the byte ranges MPI wrote: for
 * every receive and every collective, for each element type and for memory segments, at non-zero offsets, including
 * a receive shorter than the buffer. It also checks the data itself, and that an idle barrier waits for the last
 * rank. It prints one {@code receive hooks OK} line per rank and returns 0, or prints every mismatch and returns 1.
 */
public final class HookProbeApp implements MpiApplication {
    private record Event(Object buffer, long offset, long length) {
        @Override
        public String toString() {
            return buffer.getClass().getSimpleName() + "[" + offset + "+" + length + "]";
        }
    }

    private final List<Event> events = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private int checks;
    private Comm comm;
    private int rank;
    private int size;
    private int left;
    private int right;

    @Override
    public int run(Comm c, String[] args) {
        comm = c;
        rank = c.rank();
        size = c.size();
        right = (rank + 1) % size;
        left = (rank + size - 1) % size;
        c.addReceiveHook((buffer, offset, length) -> events.add(new Event(buffer, offset, length)));
        for (ElementType type : ElementType.values()) {
            pointToPoint(type);
        }
        segments();
        collectives();
        idleBarrier();
        if (failures.isEmpty()) {
            System.out.println("rank " + rank + ": receive hooks OK (" + checks + " checks, backend "
                    + c.backend() + ")");
            return 0;
        }
        failures.forEach(f -> System.out.println("rank " + rank + ": FAILED " + f));
        return 1;
    }

    private void pointToPoint(ElementType type) {
        int sz = type.size();
        Object out = fill(type, 6, rank);
        Request sent = comm.isend(out, 1, 4, type, right, 1);
        expect("isend " + type);
        Object in = array(type, 13);
        int got = comm.recv(in, 3, 10, type, left, 1);
        sent.waitFor();
        expect("recv " + type + " (4 of 10 elements)", new Event(in, 3L * sz, 4L * sz));
        check("recv count " + type, got == 4);
        check("recv data " + type, value(in, 3) == code(left, 1) && value(in, 6) == code(left, 4));

        Object in2 = array(type, 8);
        Request pending = comm.irecv(in2, 5, 3, type, left, 2);
        comm.send(out, 0, 3, type, right, 2);
        expect("send " + type);
        pending.waitFor();
        expect("irecv " + type, new Event(in2, 5L * sz, 3L * sz));
        pending.waitFor();
        expect("irecv waited twice " + type);
        check("irecv data " + type, value(in2, 5) == code(left, 0));

        Object in3 = array(type, 7);
        comm.sendrecv(out, 2, 2, right, 3, in3, 1, 2, left, 3, type);
        expect("sendrecv " + type, new Event(in3, sz, 2L * sz));
        check("sendrecv data " + type, value(in3, 2) == code(left, 3));

        // One buffer on both sides, disjoint ranges (a halo exchange): it goes to MPI as it is, without a copy.
        Object halo = fill(type, 8, rank);
        comm.sendrecv(halo, 1, 2, right, 6, halo, 5, 2, left, 6, type);
        expect("sendrecv within one " + type, new Event(halo, 5L * sz, 2L * sz));
        check("sendrecv within one data " + type, value(halo, 5) == code(left, 1) && value(halo, 6) == code(left, 2)
                && value(halo, 1) == code(rank, 1) && value(halo, 4) == code(rank, 4)
                && value(halo, 7) == code(rank, 7));
    }

    private void segments() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(8 * Double.BYTES);
            for (int i = 0; i < 8; i++) {
                out.setAtIndex(ValueLayout.JAVA_DOUBLE, i, code(rank, i));
            }
            MemorySegment in = arena.allocate(16 * Double.BYTES);
            comm.sendrecv(out, 1, 5, right, 4, in, 4, 5, left, 4, ElementType.DOUBLE);
            expect("sendrecv segment", new Event(in, 4L * 8, 5L * 8));
            check("segment data", in.getAtIndex(ValueLayout.JAVA_DOUBLE, 4) == code(left, 1));

            MemorySegment halo = arena.allocate(8 * Double.BYTES);
            for (int i = 0; i < 8; i++) {
                halo.setAtIndex(ValueLayout.JAVA_DOUBLE, i, code(rank, i));
            }
            comm.sendrecv(halo, 1, 2, right, 7, halo, 5, 2, left, 7, ElementType.DOUBLE);
            expect("sendrecv within one segment", new Event(halo, 5L * 8, 2L * 8));
            check("sendrecv within one segment data", halo.getAtIndex(ValueLayout.JAVA_DOUBLE, 5) == code(left, 1)
                    && halo.getAtIndex(ValueLayout.JAVA_DOUBLE, 6) == code(left, 2)
                    && halo.getAtIndex(ValueLayout.JAVA_DOUBLE, 1) == code(rank, 1)
                    && halo.getAtIndex(ValueLayout.JAVA_DOUBLE, 7) == code(rank, 7));

            Request pending = comm.irecv(in, 10, 3, ElementType.DOUBLE, left, 5);
            comm.send(out, 0, 3, ElementType.DOUBLE, right, 5);
            pending.waitFor();
            expect("irecv segment", new Event(in, 80, 24));

            MemorySegment sum = arena.allocate(4 * Double.BYTES);
            comm.allreduce(out, 2, sum, 1, 2, ElementType.DOUBLE, ReduceOp.SUM);
            expect("allreduce segment", new Event(sum, 8, 16));
            double expected = 0;
            for (int r = 0; r < size; r++) {
                expected += code(r, 2);
            }
            check("allreduce segment data", sum.getAtIndex(ValueLayout.JAVA_DOUBLE, 1) == expected);

            // The second call is smaller than the first: on MPJ it reuses the first one's longer staging arrays.
            alltoallSegments(arena, 3);
            alltoallSegments(arena, 1);
            bcastSegment(arena);
            allgatherSegmentInPlace(arena);
        }
    }

    /**
     * Allgather with each rank's block already in place (CG's assemble; MPI_IN_PLACE on Open MPI): three doubles
     * per rank from element 1 of a segment with a sentinel on each side, which must stay as they were.
     */
    private void allgatherSegmentInPlace(Arena arena) {
        int count = 3;
        int total = count * size;
        MemorySegment v = arena.allocate((total + 2L) * Double.BYTES);
        for (int i = 0; i < total + 2; i++) {
            v.setAtIndex(ValueLayout.JAVA_DOUBLE, i, -1.0);
        }
        for (int k = 0; k < count; k++) {
            v.setAtIndex(ValueLayout.JAVA_DOUBLE, 1 + (long) rank * count + k, code(rank, k));
        }
        comm.allgather(v, 1 + rank * count, count, v, 1, ElementType.DOUBLE);
        expect("allgather segment in place", new Event(v, 8, 8L * total));
        boolean ok = v.getAtIndex(ValueLayout.JAVA_DOUBLE, 0) == -1.0
                && v.getAtIndex(ValueLayout.JAVA_DOUBLE, total + 1) == -1.0;
        for (int j = 0; j < size; j++) {
            for (int k = 0; k < count; k++) {
                ok &= v.getAtIndex(ValueLayout.JAVA_DOUBLE, 1 + (long) j * count + k) == code(j, k);
            }
        }
        check("allgather segment in place data", ok);
    }

    /**
     * Alltoall between segments, {@code count} doubles per rank, received from element 1 of a buffer with a sentinel
     * on each side, which must stay as they were.
     */
    private void alltoallSegments(Arena arena, int count) {
        int total = count * size;
        MemorySegment send = arena.allocate((long) total * Double.BYTES);
        for (int j = 0; j < size; j++) {
            for (int k = 0; k < count; k++) {
                send.setAtIndex(ValueLayout.JAVA_DOUBLE, (long) j * count + k, code(rank, 10 * j + k));
            }
        }
        MemorySegment recv = arena.allocate((total + 2L) * Double.BYTES);
        recv.setAtIndex(ValueLayout.JAVA_DOUBLE, 0, -1.0);
        recv.setAtIndex(ValueLayout.JAVA_DOUBLE, total + 1, -1.0);
        comm.alltoall(send, 0, count, recv, 1, ElementType.DOUBLE);
        expect("alltoall segment " + count, new Event(recv, 8, 8L * total));
        boolean ok = recv.getAtIndex(ValueLayout.JAVA_DOUBLE, 0) == -1.0
                && recv.getAtIndex(ValueLayout.JAVA_DOUBLE, total + 1) == -1.0;
        for (int j = 0; j < size; j++) {
            for (int k = 0; k < count; k++) {
                ok &= recv.getAtIndex(ValueLayout.JAVA_DOUBLE, 1 + (long) j * count + k) == code(j, 10 * rank + k);
            }
        }
        check("alltoall segment data " + count, ok);
    }

    /** Broadcast of two doubles from rank 0 into elements 1 and 2 of a segment; the others stay as they were. */
    private void bcastSegment(Arena arena) {
        MemorySegment b = arena.allocate(4 * Double.BYTES);
        for (int i = 0; i < 4; i++) {
            b.setAtIndex(ValueLayout.JAVA_DOUBLE, i, rank == 0 ? 50 + i : -1.0);
        }
        comm.bcast(b, 1, 2, ElementType.DOUBLE, 0);
        if (rank == 0) {
            expect("bcast segment at root");
        } else {
            expect("bcast segment", new Event(b, 8, 16));
        }
        check("bcast segment data", b.getAtIndex(ValueLayout.JAVA_DOUBLE, 1) == 51
                && b.getAtIndex(ValueLayout.JAVA_DOUBLE, 2) == 52
                && b.getAtIndex(ValueLayout.JAVA_DOUBLE, 3) == (rank == 0 ? 53 : -1.0));
    }

    /** The idle barrier waits for the last rank: the others leave it no sooner than rank 0, which arrives late. */
    private void idleBarrier() {
        comm.barrier();
        long started = System.nanoTime();
        if (rank == 0) {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        comm.idleBarrier();
        double waited = (System.nanoTime() - started) * 1e-9;
        check("idle barrier waited " + waited + " s for rank 0's 0.3 s", waited >= 0.29);
        expect("idle barrier");
    }

    private void collectives() {
        long[] b = new long[6];
        if (rank == 0) {
            b[2] = 77;
        }
        comm.bcast(b, 2, 3, 0);
        if (rank == 0) {
            expect("bcast at root");
        } else {
            expect("bcast", new Event(b, 16, 24));
        }
        check("bcast data", b[2] == 77);

        double[] mine = {0, rank + 1.0, 2.0 * (rank + 1)};
        double[] reduced = new double[4];
        int root = size - 1;
        comm.reduce(mine, 1, reduced, 1, 2, ReduceOp.SUM, root);
        if (rank == root) {
            expect("reduce at root", new Event(reduced, 8, 16));
            check("reduce data", reduced[1] == size * (size + 1) / 2.0);
        } else {
            expect("reduce off root");
        }

        double[] inPlace = {9, 9, rank, rank * 2.0, 9};
        comm.allreduce(inPlace, 2, inPlace, 2, 2, ReduceOp.MAX);
        expect("allreduce in place", new Event(inPlace, 16, 16));
        check("allreduce in place data", inPlace[2] == size - 1 && inPlace[4] == 9 && inPlace[1] == 9);

        int[] two = {rank * 10, rank * 10 + 1};
        int[] gathered = new int[2 * size + 1];
        comm.gather(two, 0, 2, gathered, 1, 0);
        if (rank == 0) {
            expect("gather at root", new Event(gathered, 4, 8L * size));
            check("gather data", gathered[1 + 2 * (size - 1)] == (size - 1) * 10);
        } else {
            expect("gather off root");
        }

        int[] all = new int[2 * size + 3];
        comm.allgather(two, 0, 2, all, 3);
        expect("allgather", new Event(all, 12, 8L * size));
        check("allgather data", all[3 + 2 * (size - 1) + 1] == (size - 1) * 10 + 1);

        long[] own = new long[2 * size + 1];
        own[0] = -1;
        own[1 + 2 * rank] = rank * 10L;
        own[2 + 2 * rank] = rank * 10L + 1;
        comm.allgather(own, 1 + 2 * rank, 2, own, 1);
        expect("allgather in place", new Event(own, 8, 16L * size));
        boolean ownOk = own[0] == -1;
        for (int j = 0; j < size; j++) {
            ownOk &= own[1 + 2 * j] == j * 10L && own[2 + 2 * j] == j * 10L + 1;
        }
        check("allgather in place data", ownOk);

        byte[] blocks = new byte[2 * size];
        for (int j = 0; j < size; j++) {
            blocks[2 * j] = (byte) (rank * 16 + j);
        }
        byte[] swapped = new byte[2 * size + 1];
        comm.alltoall(blocks, 0, 2, swapped, 1);
        expect("alltoall", new Event(swapped, 1, 2L * size));
        check("alltoall data", swapped[1 + 2 * (size - 1)] == (byte) ((size - 1) * 16 + rank));

        alltoallv();
    }

    /** Rank j sends (j + i) % 3 elements to rank i, received with one-element gaps between blocks. */
    private void alltoallv() {
        int[] sendCounts = new int[size];
        int[] sendDispls = new int[size];
        int[] recvCounts = new int[size];
        int[] recvDispls = new int[size];
        int sendTotal = 0;
        int recvEnd = 0;
        for (int j = 0; j < size; j++) {
            sendCounts[j] = (rank + j) % 3;
            sendDispls[j] = sendTotal;
            sendTotal += sendCounts[j];
            recvCounts[j] = (j + rank) % 3;
            recvDispls[j] = recvEnd + 1;
            recvEnd = recvDispls[j] + recvCounts[j];
        }
        double[] send = new double[Math.max(sendTotal, 1)];
        for (int j = 0; j < size; j++) {
            for (int k = 0; k < sendCounts[j]; k++) {
                send[sendDispls[j] + k] = code(rank, 100 * j + k);
            }
        }
        double[] recv = new double[recvEnd + 2];
        comm.alltoallv(send, 0, sendCounts, sendDispls, recv, 2, recvCounts, recvDispls);
        List<Event> expected = new ArrayList<>();
        for (int j = 0; j < size; j++) {
            if (recvCounts[j] > 0) {
                expected.add(new Event(recv, 8L * (2 + recvDispls[j]), 8L * recvCounts[j]));
                check("alltoallv data from " + j, recv[2 + recvDispls[j]] == code(j, 100 * rank));
            }
        }
        expect("alltoallv", expected.toArray(Event[]::new));
        if (size == 1 && comm.backend().equals("mpj")) {
            unequalCountsOnOneRank();
        }
    }

    /** MPJ's one-rank exchange is a copy, which refuses counts MPI would refuse: what is sent must be received. */
    private void unequalCountsOnOneRank() {
        try {
            comm.alltoallv(new double[2], 0, new int[] {1}, new int[] {0}, new double[2], 0, new int[] {2},
                    new int[] {0});
            check("alltoallv with unequal counts on one rank is refused", false);
        } catch (IllegalArgumentException e) {
            check("alltoallv unequal counts message", e.getMessage().equals(
                    "alltoallv on one rank: sendCounts[0]=1 recvCounts[0]=2 must be equal"));
        }
        events.clear();
    }

    private void expect(String what, Event... expected) {
        checks++;
        if (!events.equals(Arrays.asList(expected))) {
            failures.add(what + ": expected " + Arrays.toString(expected) + " but hooks saw " + events);
        }
        events.clear();
    }

    private void check(String what, boolean ok) {
        checks++;
        if (!ok) {
            failures.add(what + ": wrong data");
        }
    }

    /** A value that identifies (source rank, element index) and survives every element type. */
    private static long code(int source, int index) {
        return (source * 7L + index) % 100;
    }

    private static Object array(ElementType type, int length) {
        return Buffers.newArray(type, length);
    }

    private static Object fill(ElementType type, int length, int source) {
        Object a = array(type, length);
        for (int i = 0; i < length; i++) {
            switch (a) {
                case byte[] x -> x[i] = (byte) code(source, i);
                case int[] x -> x[i] = (int) code(source, i);
                case long[] x -> x[i] = code(source, i);
                case double[] x -> x[i] = code(source, i);
                default -> throw new IllegalStateException();
            }
        }
        return a;
    }

    private static long value(Object a, int i) {
        return switch (a) {
            case byte[] x -> x[i];
            case int[] x -> x[i];
            case long[] x -> x[i];
            case double[] x -> (long) x[i];
            default -> throw new IllegalStateException();
        };
    }
}
