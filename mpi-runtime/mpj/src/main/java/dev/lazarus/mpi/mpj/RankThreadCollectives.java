package dev.lazarus.mpi.mpj;

import dev.lazarus.mpi.ElementType;
import dev.lazarus.mpi.MpiException;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.mpi.spi.Buffers;
import dev.lazarus.mpi.spi.Reductions;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * Allreduce, allgather, alltoall and alltoallv among ranks that are threads of one JVM, as MPJ Express's multicore
 * device runs them, without MPJ's device: each rank publishes its send array in a slot, waits for the others at a
 * barrier, reads their arrays directly, and waits at a second barrier before its array may change again.
 *
 * <p>Why: through MPJ a one-double allreduce inside CG took about 240 us per call on two ranks (Open MPI: 25-30 us),
 * and CG class A on 2 ranks spent 350-450 ms of its 0.6 s in MPJ's exchanges; neither compiling MPJ's code sooner
 * nor keeping the idle vCPU polling changed that much. The state the ranks share consists of JDK types only, kept
 * in the system properties under a per-job key, so every rank thread finds the same objects whichever class loader
 * loaded this class (MPJ gives each rank thread a loader of its own).
 *
 * <p>Heap objects are exchanged where they are mapped (the heap's arenas are shared, so every rank thread may read
 * them), not staged in Java arrays first: for FT's transposes that saved two of three copies of the whole grid.
 *
 * <p>Reductions fold in rank order ({@code ((x0 op x1) op x2) ...}), so every rank gets the same bits in every run.
 * A waiting rank spins for {@link #SPIN_NANOS}, then parks in short steps: two ranks on two cores then meet within
 * a microsecond, and an oversubscribed node does not burn a core per waiting rank for long.
 */
final class RankThreadCollectives {
    /** How long a rank spins at a barrier before parking. */
    static final long SPIN_NANOS = 200_000;
    /** One park while waiting after that. */
    private static final long PARK_NANOS = 20_000;

    /** A thread that owns no segment: a segment it may access is not confined to one rank thread. */
    private static final Thread NOT_AN_OWNER = new Thread(() -> { });

    private final int rank;
    private final int size;
    /** [0] arrivals at the current barrier, [1] its generation. */
    private final AtomicIntegerArray barrier;
    private final AtomicReferenceArray<Object> arrays;
    private final AtomicIntegerArray offsets;
    /** Each rank's alltoallv send counts and displacements, at {@code 2 * rank} and {@code 2 * rank + 1}. */
    private final AtomicReferenceArray<int[]> layouts;

    /**
     * @param shared the job's state from {@link #newSharedState}, the same object for every rank
     */
    RankThreadCollectives(int rank, int size, Object[] shared) {
        this.rank = rank;
        this.size = size;
        this.barrier = (AtomicIntegerArray) shared[0];
        @SuppressWarnings("unchecked")
        AtomicReferenceArray<Object> published = (AtomicReferenceArray<Object>) shared[1];
        this.arrays = published;
        this.offsets = (AtomicIntegerArray) shared[2];
        @SuppressWarnings("unchecked")
        AtomicReferenceArray<int[]> sendLayouts = (AtomicReferenceArray<int[]>) shared[4];
        this.layouts = sendLayouts;
        if (arrays.length() != size) {
            throw new IllegalArgumentException("shared state for " + arrays.length() + " ranks, not " + size);
        }
    }

    /**
     * The state {@code size} rank threads share: the barrier, the published arrays and offsets, the count of ranks
     * that joined ({@link #join}) and the published alltoallv layouts.
     */
    static Object[] newSharedState(int size) {
        return new Object[] {new AtomicIntegerArray(2), new AtomicReferenceArray<>(size), new AtomicIntegerArray(size),
                new AtomicInteger(), new AtomicReferenceArray<int[]>(2 * size)};
    }

    /**
     * Joins the state kept under {@code key} in the system properties (made by the first rank to ask), counting this
     * rank in {@link #joined}, and returns it. Ranks in separate JVMs each find a state of their own.
     */
    static Object[] join(String key, int size) {
        Object[] shared = (Object[]) System.getProperties().computeIfAbsent(key, k -> newSharedState(size));
        ((AtomicInteger) shared[3]).incrementAndGet();
        return shared;
    }

    /** How many ranks have joined {@code shared}. */
    static int joined(Object[] shared) {
        return ((AtomicInteger) shared[3]).get();
    }

    /**
     * {@code recv[recvOffset + i] = send_0[i] op send_1[i] op ...} over every rank's send range, in rank order.
     * Every rank's arrays are of one primitive type; {@code recv} is not another rank's send array.
     */
    void allreduce(Object send, int sendOffset, Object recv, int recvOffset, int count, ReduceOp op) {
        publish(send, sendOffset);
        await();
        System.arraycopy(arrays.get(0), offsets.get(0), recv, recvOffset, count);
        for (int p = 1; p < size; p++) {
            Reductions.combineInto(op, arrays.get(p), offsets.get(p), recv, recvOffset, count);
        }
        await(); // the others read this rank's send array until here
    }

    /**
     * Every rank's {@code count} elements, rank {@code p}'s at {@code recvOffset + p * count} of {@code recv}. Here
     * and in the all-to-alls, a buffer is a Java array or a memory segment (a heap object's, or any other: one
     * confined to its rank's thread is copied for the others), offsets count elements of {@code type}, and no rank's
     * receive buffer is another rank's send buffer.
     */
    void allgather(Object send, int sendOffset, int count, Object recv, int recvOffset, ElementType type) {
        publishReadable(send, sendOffset, count, type);
        await();
        for (int p = 0; p < size; p++) {
            Buffers.copy(arrays.get(p), offsets.get(p), recv, recvOffset + p * count, count, type);
        }
        await();
    }

    /**
     * {@link #allgather} with each rank's block already in place, at {@code offset + rank * count} of its buffer
     * (MPI's {@code MPI_IN_PLACE}): no copy of the block is made to send it. Rank {@code q}'s block {@code q} is only
     * read by the others, and it writes only the other blocks of its buffer, so the ranks never touch the same
     * elements (CG gathers its direction vector so, once per step).
     */
    void allgatherInPlace(Object buf, int offset, int count, ElementType type) {
        publishReadable(buf, offset + rank * count, count, type);
        await();
        for (int p = 0; p < size; p++) {
            if (p != rank) {
                Buffers.copy(arrays.get(p), offsets.get(p), buf, offset + p * count, count, type);
            }
        }
        await();
    }

    /**
     * Block {@code p} of every rank's send range ({@code count} elements at {@code sendOffset + p * count}) goes to
     * rank {@code p}, which receives rank {@code q}'s at {@code recvOffset + q * count}.
     */
    void alltoall(Object send, int sendOffset, int count, Object recv, int recvOffset, ElementType type) {
        publishReadable(send, sendOffset, count * size, type);
        await();
        for (int q = 0; q < size; q++) {
            Buffers.copy(arrays.get(q), offsets.get(q) + rank * count, recv, recvOffset + q * count, count, type);
        }
        await();
    }

    /**
     * MPI's alltoallv: rank {@code q}'s {@code sendCounts[p]} elements at {@code sendDispls[p]} of its send range go
     * to rank {@code p}, at {@code recvDispls[q]} of its receive range, where {@code recvCounts[q]} must equal them.
     *
     * @throws MpiException if a rank expects another count than its sender sends (after both barriers, so that no
     *                      rank is left waiting); an MPI error, not an argument error, as through MPJ, so that a
     *                      resumed run whose counts come from garbage rolls back
     */
    void alltoallv(Object send, int sendOffset, int[] sendCounts, int[] sendDispls, Object recv, int recvOffset,
                   int[] recvCounts, int[] recvDispls, ElementType type) {
        publishReadable(send, sendOffset, Buffers.extent(sendCounts, sendDispls), type);
        layouts.set(2 * rank, sendCounts);
        layouts.set(2 * rank + 1, sendDispls);
        await();
        String mismatch = null;
        for (int q = 0; q < size; q++) {
            int count = layouts.get(2 * q)[rank];
            if (count != recvCounts[q]) {
                mismatch = "mpj: alltoallv: rank " + q + " sends " + count + " elements to rank " + rank
                        + ", which expects " + recvCounts[q];
                continue;
            }
            Buffers.copy(arrays.get(q), offsets.get(q) + layouts.get(2 * q + 1)[rank], recv,
                    recvOffset + recvDispls[q], count, type);
        }
        await();
        if (mismatch != null) {
            throw new MpiException(mismatch);
        }
    }

    /**
     * Publishes a send buffer of {@code extent} elements from {@code offset} so that the other rank threads can read
     * it: a segment confined to this thread (a user's {@code Arena.ofConfined()}) is published as a copy.
     */
    private void publishReadable(Object send, int offset, int extent, ElementType type) {
        if (send instanceof MemorySegment segment && !segment.isAccessibleBy(NOT_AN_OWNER)) {
            publish(Buffers.copyOf(segment, offset, extent, type), 0);
        } else {
            publish(send, offset);
        }
    }

    private void publish(Object array, int offset) {
        arrays.set(rank, array);
        offsets.set(rank, offset);
    }

    /** Returns once every rank has arrived; the volatile counters order each rank's writes before the others' reads. */
    private void await() {
        int generation = barrier.get(1);
        if (barrier.incrementAndGet(0) == size) {
            barrier.set(0, 0);
            barrier.incrementAndGet(1);
            return;
        }
        long start = System.nanoTime();
        boolean parking = false;
        for (int spins = 1; barrier.get(1) == generation; spins++) {
            if (parking) {
                LockSupport.parkNanos(PARK_NANOS);
            } else {
                Thread.onSpinWait();
                parking = (spins & 255) == 0 && System.nanoTime() - start > SPIN_NANOS;
            }
        }
    }
}
