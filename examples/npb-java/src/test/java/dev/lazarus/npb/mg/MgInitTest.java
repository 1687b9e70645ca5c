package dev.lazarus.npb.mg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lazarus.easycrash.DoubleArray;
import dev.lazarus.mpi.testing.ThreadComm;
import dev.lazarus.npb.common.NpbRandom;
import dev.lazarus.npb.testing.TestHeap;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** zran3 against a brute-force reading of the NPB sequence, and its independence of the decomposition. */
class MgInitTest {
    private static final int N = 16;
    private static final int M = N + 2;

    @TempDir
    Path nvm;
    private TestHeap heap;

    @BeforeEach
    void openHeap() throws IOException {
        heap = TestHeap.open(nvm);
    }

    @AfterEach
    void releaseHeap() throws IOException {
        heap.close();
    }

    /** The random field of the whole grid, generated straight through in serial index order. */
    private static double[] bruteForceField() {
        double[] field = new double[N * N * N];
        NpbRandom random = new NpbRandom(314159265.0);
        for (int i = 0; i < field.length; i++) {
            field[i] = random.randlc(NpbRandom.A);
        }
        return field;
    }

    /** Interior of a full array as a serial-order vector. */
    private static double[] interior(DoubleArray grid) {
        return interior(grid.toArray());
    }

    /** Interior of a full array as a serial-order vector. */
    private static double[] interior(double[] z) {
        double[] out = new double[N * N * N];
        for (int i3 = 1; i3 <= N; i3++) {
            for (int i2 = 1; i2 <= N; i2++) {
                for (int i1 = 1; i1 <= N; i1++) {
                    out[(i1 - 1) + N * ((i2 - 1) + N * (i3 - 1))] = z[(i3 * M + i2) * M + i1];
                }
            }
        }
        return out;
    }

    @Test
    void fillMatchesTheSequenceInSerialOrder() {
        MgGrid grid = new MgGrid(N, 1, 0);
        DoubleArray z = heap.zeros(grid.size(grid.lt));
        MgInit.fillRandom(z, grid);
        assertArrayEquals(bruteForceField(), interior(z));
    }

    @Test
    void slabFillsJumpAheadToTheirPlanes() {
        double[] field = bruteForceField();
        for (int rank = 0; rank < 4; rank++) {
            MgGrid grid = new MgGrid(N, 4, rank);
            DoubleArray z = heap.zeros(grid.size(grid.lt));
            MgInit.fillRandom(z, grid);
            int z0 = grid.zOff[grid.lt];
            double[] plane = Arrays.copyOfRange(z.toArray(), M * M, 2 * M * M);
            assertEquals(field[N * N * z0 + 5 * N + 7], plane[6 * M + 8], 0.0, "rank " + rank);
        }
    }

    @Test
    void chargesSitOnTheGlobalExtremesForEveryDecomposition() throws Exception {
        double[] field = bruteForceField();
        Integer[] order = IntStream.range(0, field.length).boxed().toArray(Integer[]::new);
        Arrays.sort(order, Comparator.comparingDouble(i -> field[i]));
        double[] expected = new double[field.length];
        for (int i = 0; i < MgInit.MM; i++) {
            expected[order[i]] = -1.0;
            expected[order[field.length - 1 - i]] = +1.0;
        }
        for (int ranks : new int[] {1, 2, 4, 16}) {
            // The heap is single-threaded: every rank's grid is allocated before the ranks start.
            DoubleArray[] grids = new DoubleArray[ranks];
            for (int q = 0; q < ranks; q++) {
                MgGrid grid = new MgGrid(N, ranks, q);
                grids[q] = heap.zeros(grid.size(grid.lt));
            }
            List<double[]> slabs = ThreadComm.run(ranks, comm -> {
                MgGrid grid = new MgGrid(N, comm.size(), comm.rank());
                DoubleArray z = grids[comm.rank()];
                MgInit.zran3(z, grid, comm, new MgHalo(comm, grid));
                return z.toArray();
            });
            double[] full = new double[M * M * M];
            int slabPlanes = N / ranks;
            for (int q = 0; q < ranks; q++) {
                System.arraycopy(slabs.get(q), M * M, full, (1 + q * slabPlanes) * M * M, slabPlanes * M * M);
            }
            assertArrayEquals(expected, interior(full), "ranks=" + ranks);
            // The exchanged lower ghost plane of rank 0 is the top plane of the grid.
            assertArrayEquals(Arrays.copyOfRange(full, N * M * M, (N + 1) * M * M),
                    Arrays.copyOfRange(slabs.get(0), 0, M * M), "ghost ranks=" + ranks);
        }
    }

    @Test
    void bubbleKeepsTheTenLargest() {
        double[] ten = new double[MgInit.MM];
        long[] at = new long[MgInit.MM];
        double[] stream = new double[200];
        NpbRandom random = new NpbRandom(271828183.0);
        for (int i = 0; i < stream.length; i++) {
            stream[i] = random.randlc(NpbRandom.A);
            if (stream[i] > ten[0]) {
                ten[0] = stream[i];
                at[0] = i;
                MgInit.bubble(ten, at, true);
            }
        }
        double[] sorted = stream.clone();
        Arrays.sort(sorted);
        assertArrayEquals(Arrays.copyOfRange(sorted, sorted.length - MgInit.MM, sorted.length), ten);
        for (int i = 0; i < MgInit.MM; i++) {
            assertEquals(stream[(int) at[i]], ten[i], 0.0);
        }
    }
}
