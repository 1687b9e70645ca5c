package dev.lazarus.mpi.mpj;

import dev.lazarus.mpi.ElementType;
import dev.lazarus.mpi.MpiException;
import dev.lazarus.mpi.ReduceOp;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@link RankThreadCollectives} with real threads as ranks, over many rounds (so the barriers are reused and a rank
 * that ran ahead would read a changed array): results against a fold in rank order computed here.
 */
class RankThreadCollectivesTest {
    private static final int RANKS = 3;
    private static final int ROUNDS = 300;

    /** The value rank {@code rank} contributes at element {@code i} of round {@code round}. */
    private static double value(int rank, int round, int i) {
        return (rank + 1) * 0.1 + round * 1.0e-3 + i * 7.0;
    }

    /** Runs {@code body(rank, collectives)} on {@link #RANKS} threads sharing one state; fails with a rank's error. */
    private static void onRanks(RankBody body) throws Exception {
        Object[] shared = RankThreadCollectives.newSharedState(RANKS);
        ExecutorService pool = Executors.newFixedThreadPool(RANKS);
        try {
            List<Future<Object>> ranks = new ArrayList<>();
            for (int r = 0; r < RANKS; r++) {
                int rank = r;
                ranks.add(pool.submit(() -> {
                    body.run(rank, new RankThreadCollectives(rank, RANKS, shared));
                    return null;
                }));
            }
            for (Future<Object> rank : ranks) {
                rank.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @FunctionalInterface
    private interface RankBody {
        void run(int rank, RankThreadCollectives collectives) throws Exception;
    }

    @Test
    void doubleSumsFoldInRankOrderEveryRound() throws Exception {
        onRanks((rank, c) -> {
            double[] send = new double[6];
            double[] recv = new double[5];
            for (int round = 0; round < ROUNDS; round++) {
                int count = 1 + round % 4;
                for (int i = 0; i < count; i++) {
                    send[2 + i] = value(rank, round, i);
                }
                c.allreduce(send, 2, recv, 1, count, ReduceOp.SUM);
                for (int i = 0; i < count; i++) {
                    double expected = (value(0, round, i) + value(1, round, i)) + value(2, round, i);
                    assertEquals(Double.doubleToLongBits(expected), Double.doubleToLongBits(recv[1 + i]),
                            "rank " + rank + " round " + round + " element " + i);
                }
            }
        });
    }

    @Test
    void everyTypeAndOperation() throws Exception {
        onRanks((rank, c) -> {
            for (int round = 0; round < 50; round++) {
                long[] longs = {rank * 10L + round, -rank};
                long[] longOut = new long[2];
                c.allreduce(longs, 0, longOut, 0, 2, ReduceOp.MAX);
                assertArrayEquals(new long[] {20L + round, 0}, longOut);
                c.allreduce(longs, 0, longOut, 0, 2, ReduceOp.MIN);
                assertArrayEquals(new long[] {round, -2}, longOut);

                int[] ints = {rank + 2, round};
                int[] intOut = new int[2];
                c.allreduce(ints, 0, intOut, 0, 2, ReduceOp.PROD);
                assertArrayEquals(new int[] {2 * 3 * 4, round * round * round}, intOut);

                byte[] bytes = {(byte) 100, (byte) rank};
                byte[] byteOut = new byte[2];
                c.allreduce(bytes, 0, byteOut, 0, 2, ReduceOp.SUM);
                assertArrayEquals(new byte[] {(byte) 300, 3}, byteOut); // wraps as Java bytes do

                double[] doubles = {rank == 1 ? -0.5 : 2.0};
                double[] doubleOut = new double[1];
                c.allreduce(doubles, 0, doubleOut, 0, 1, ReduceOp.MIN);
                assertEquals(-0.5, doubleOut[0]);
            }
        });
    }

    @Test
    void allgatherPlacesEachRanksBlockAtItsRank() throws Exception {
        onRanks((rank, c) -> {
            int[] send = new int[4];
            int[] recv = new int[2 + 3 * 3];
            for (int round = 0; round < ROUNDS; round++) {
                for (int i = 0; i < 3; i++) {
                    send[1 + i] = rank * 1000 + round * 10 + i;
                }
                c.allgather(send, 1, 3, recv, 2, ElementType.INT);
                for (int p = 0; p < RANKS; p++) {
                    for (int i = 0; i < 3; i++) {
                        assertEquals(p * 1000 + round * 10 + i, recv[2 + p * 3 + i],
                                "rank " + rank + " round " + round + " from " + p);
                    }
                }
            }
        });
    }

    @Test
    void inPlaceAllgatherFillsTheOtherBlocksAndLeavesOwnAlone() throws Exception {
        // Odd ranks gather into a shared native segment, even ranks into an array, 1000 elements per block.
        try (Arena arena = Arena.ofShared()) {
            onRanks((rank, c) -> {
                int count = 1000;
                int length = 2 + count * RANKS;
                Object buf = rank % 2 == 1 ? arena.allocate(8L * length, 8) : new double[length];
                for (int round = 0; round < ROUNDS; round++) {
                    for (int i = 0; i < count; i++) {
                        setDoubleAt(buf, 2 + rank * count + i, value(rank, round, i));
                    }
                    c.allgatherInPlace(buf, 2, count, ElementType.DOUBLE);
                    for (int p = 0; p < RANKS; p++) {
                        for (int i = 0; i < count; i += 97) {
                            assertEquals(value(p, round, i), doubleAt(buf, 2 + p * count + i),
                                    "rank " + rank + " round " + round + " from " + p);
                        }
                    }
                }
            });
        }
    }

    @Test
    void alltoallSendsBlockPToRankP() throws Exception {
        onRanks((rank, c) -> {
            long[] send = new long[1 + 2 * RANKS];
            long[] recv = new long[2 * RANKS];
            for (int round = 0; round < ROUNDS; round++) {
                for (int p = 0; p < RANKS; p++) {
                    send[1 + 2 * p] = rank * 100L + p * 10L + round * 1000L;
                    send[2 + 2 * p] = -send[1 + 2 * p];
                }
                c.alltoall(send, 1, 2, recv, 0, ElementType.LONG);
                for (int q = 0; q < RANKS; q++) {
                    long expected = q * 100L + rank * 10L + round * 1000L;
                    assertArrayEquals(new long[] {expected, -expected}, new long[] {recv[2 * q], recv[2 * q + 1]},
                            "rank " + rank + " round " + round + " from " + q);
                }
            }
        });
    }

    @Test
    void heapSegmentsAndArraysMixInOneAlltoall() throws Exception {
        // Even ranks send from a mapped-style native segment, odd ranks receive into one: no staging either way.
        try (Arena arena = Arena.ofShared()) {
            onRanks((rank, c) -> {
                int count = 1000;
                double[] sendArray = new double[2 + count * RANKS];
                MemorySegment sendSegment = arena.allocate(8L * sendArray.length, 8);
                double[] recvArray = new double[count * RANKS + 3];
                MemorySegment recvSegment = arena.allocate(8L * recvArray.length, 8);
                Object send = rank % 2 == 0 ? sendSegment : sendArray;
                Object recv = rank % 2 == 1 ? recvSegment : recvArray;
                for (int round = 0; round < 50; round++) {
                    for (int p = 0; p < RANKS; p++) {
                        for (int i = 0; i < count; i++) {
                            double v = value(rank, round, p * count + i);
                            sendArray[2 + p * count + i] = v;
                            sendSegment.setAtIndex(ValueLayout.JAVA_DOUBLE, 2 + p * count + i, v);
                        }
                    }
                    c.alltoall(send, 2, count, recv, 3, ElementType.DOUBLE);
                    for (int q = 0; q < RANKS; q++) {
                        for (int i = 0; i < count; i++) {
                            assertEquals(value(q, round, rank * count + i), doubleAt(recv, 3 + q * count + i),
                                    "rank " + rank + " round " + round + " from " + q + " element " + i);
                        }
                    }
                }
            });
        }
    }

    @Test
    void aSegmentConfinedToItsRankThreadIsReadableByTheOthers() throws Exception {
        // Each rank sends from a segment of its own confined arena, which no other thread may touch.
        onRanks((rank, c) -> {
            try (Arena own = Arena.ofConfined()) {
                MemorySegment send = own.allocate(4L * (1 + RANKS), 4);
                int[] gathered = new int[RANKS];
                int[] swapped = new int[RANKS];
                int[] counts = new int[RANKS];
                int[] displs = new int[RANKS];
                java.util.Arrays.fill(counts, 1);
                for (int p = 0; p < RANKS; p++) {
                    displs[p] = p;
                }
                for (int round = 0; round < 20; round++) {
                    for (int p = 0; p < RANKS; p++) {
                        send.setAtIndex(ValueLayout.JAVA_INT, 1 + p, rank * 100 + p * 10 + round);
                    }
                    c.allgather(send, 1, 1, gathered, 0, ElementType.INT);
                    c.alltoall(send, 1, 1, swapped, 0, ElementType.INT);
                    int[] viaV = new int[RANKS];
                    c.alltoallv(send, 1, counts, displs, viaV, 0, counts, displs, ElementType.INT);
                    for (int q = 0; q < RANKS; q++) {
                        assertEquals(q * 100 + round, gathered[q], "allgather from " + q);
                        assertEquals(q * 100 + rank * 10 + round, swapped[q], "alltoall from " + q);
                        assertEquals(swapped[q], viaV[q], "alltoallv from " + q);
                    }
                }
            }
        });
    }

    @Test
    void alltoallvUsesEachSendersLayoutAndRefusesAMismatchOnEveryRank() throws Exception {
        // rank q sends q + p + 1 elements to rank p, laid out in reverse order of p in its send array
        onRanks((rank, c) -> {
            int[] sendCounts = new int[RANKS];
            int[] sendDispls = new int[RANKS];
            int at = 0;
            for (int p = RANKS - 1; p >= 0; p--) {
                sendCounts[p] = rank + p + 1;
                sendDispls[p] = at;
                at += sendCounts[p];
            }
            int[] recvCounts = new int[RANKS];
            int[] recvDispls = new int[RANKS];
            int total = 0;
            for (int q = 0; q < RANKS; q++) {
                recvCounts[q] = q + rank + 1;
                recvDispls[q] = total;
                total += recvCounts[q];
            }
            int[] send = new int[at];
            int[] recv = new int[total + 1];
            for (int round = 0; round < 100; round++) {
                for (int p = 0; p < RANKS; p++) {
                    for (int i = 0; i < sendCounts[p]; i++) {
                        send[sendDispls[p] + i] = rank * 10_000 + p * 100 + i + round;
                    }
                }
                c.alltoallv(send, 0, sendCounts, sendDispls, recv, 1, recvCounts, recvDispls,
                        ElementType.INT);
                for (int q = 0; q < RANKS; q++) {
                    for (int i = 0; i < recvCounts[q]; i++) {
                        assertEquals(q * 10_000 + rank * 100 + i + round, recv[1 + recvDispls[q] + i]);
                    }
                }
            }
            int[] wrong = recvCounts.clone();
            wrong[0]++;
            MpiException e = assertThrows(MpiException.class,
                    () -> c.alltoallv(send, 0, sendCounts, sendDispls, recv, 1, wrong, recvDispls,
                            ElementType.INT));
            assertEquals("mpj: alltoallv: rank 0 sends " + recvCounts[0] + " elements to rank " + rank
                    + ", which expects " + wrong[0], e.getMessage());
        });
    }

    @Test
    void ranksJoinTheStateUnderTheirKeyOnly() {
        String key = "test.rank-thread-collectives." + System.nanoTime();
        try {
            Object[] first = RankThreadCollectives.join(key, 2);
            Object[] second = RankThreadCollectives.join(key, 2);
            assertSame(first, second);
            assertEquals(2, RankThreadCollectives.joined(first));
            Object[] other = RankThreadCollectives.join(key + ".other", 2);
            assertNotSame(first, other);
            assertEquals(1, RankThreadCollectives.joined(other));
        } finally {
            System.getProperties().remove(key);
            System.getProperties().remove(key + ".other");
        }
        assertThrows(IllegalArgumentException.class,
                () -> new RankThreadCollectives(0, 3, RankThreadCollectives.newSharedState(2)));
    }

    /** Element {@code index} of a {@code double[]} or of a native segment of doubles. */
    private static double doubleAt(Object buffer, int index) {
        return buffer instanceof MemorySegment segment ? segment.getAtIndex(ValueLayout.JAVA_DOUBLE, index)
                : ((double[]) buffer)[index];
    }

    /** Sets element {@code index} of a {@code double[]} or of a native segment of doubles. */
    private static void setDoubleAt(Object buffer, int index, double value) {
        if (buffer instanceof MemorySegment segment) {
            segment.setAtIndex(ValueLayout.JAVA_DOUBLE, index, value);
        } else {
            ((double[]) buffer)[index] = value;
        }
    }
}
