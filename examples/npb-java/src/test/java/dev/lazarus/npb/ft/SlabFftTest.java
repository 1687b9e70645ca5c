package dev.lazarus.npb.ft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.easycrash.DoubleArray;
import dev.lazarus.easycrash.ObjectRole;
import dev.lazarus.mpi.ElementType;
import dev.lazarus.mpi.testing.ThreadComm;
import dev.lazarus.npb.testing.TestHeap;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SlabFftTest {

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

    private static double[] randomGrid(long seed, int complexCount) {
        Random random = new Random(seed);
        double[] x = new double[2 * complexCount];
        for (int i = 0; i < x.length; i++) {
            x[i] = random.nextDouble() - 0.5;
        }
        return x;
    }

    /** Naive 3D DFT (sign +1) of an xyz grid, one axis at a time with the naive 1D DFT; result in xyz layout. */
    private static double[] naive3d(double[] xyz, int nx, int ny, int nz) {
        double[] a = xyz.clone();
        int[] dims = {nx, ny, nz};
        int[] strides = {1, nx, nx * ny};
        for (int axis = 0; axis < 3; axis++) {
            int n = dims[axis];
            int stride = strides[axis];
            for (int base = 0; base < nx * ny * nz; base++) {
                if ((base / stride) % n != 0) {
                    continue;   // not the first element of a line along this axis
                }
                double[] line = new double[2 * n];
                for (int i = 0; i < n; i++) {
                    line[2 * i] = a[2 * (base + i * stride)];
                    line[2 * i + 1] = a[2 * (base + i * stride) + 1];
                }
                double[] f = StockhamFftTest.naiveDft(line, 1);
                for (int i = 0; i < n; i++) {
                    a[2 * (base + i * stride)] = f[2 * i];
                    a[2 * (base + i * stride) + 1] = f[2 * i + 1];
                }
            }
        }
        return a;
    }

    @Test
    void forwardMatchesNaive3dDftInZxyLayout() {
        int nx = 8;
        int ny = 4;
        int nz = 16;
        double[] input = randomGrid(1, nx * ny * nz);
        double[] expected = naive3d(input, nx, ny, nz);
        SlabFft fft = new SlabFft(nx, ny, nz, 1, null);
        DoubleArray x1 = heap.of(input);
        DoubleArray out = heap.zeros(input.length);
        fft.forward(x1, out);
        double[] x2 = out.toArray();
        double maxErr = 0.0;
        for (int z = 0; z < nz; z++) {
            for (int y = 0; y < ny; y++) {
                for (int x = 0; x < nx; x++) {
                    int xyz = 2 * (x + nx * (y + ny * z));
                    int zxy = 2 * (z + nz * (x + nx * y));
                    maxErr = Math.max(maxErr, Math.abs(expected[xyz] - x2[zxy]));
                    maxErr = Math.max(maxErr, Math.abs(expected[xyz + 1] - x2[zxy + 1]));
                }
            }
        }
        assertTrue(maxErr < 1e-12, "maxErr=" + maxErr);
    }

    @Test
    void inverseOfForwardRestoresTheGridTimesN() {
        int nx = 32;
        int ny = 16;
        int nz = 64;
        int n = nx * ny * nz;
        double[] input = randomGrid(2, n);
        SlabFft fft = new SlabFft(nx, ny, nz, 1, null);
        DoubleArray x1 = heap.of(input);
        DoubleArray x2 = heap.zeros(input.length);
        fft.forward(x1, x2);
        fft.inverse(x2, x1);
        double[] back = x1.toArray();
        for (int i = 0; i < input.length; i++) {
            assertEquals(input[i], back[i] / n, 1e-15, "index " + i);
        }
    }

    @Test
    void slabsOnSeveralRanksGiveTheSingleRankResultBitForBit() throws Exception {
        int nx = 16;
        int ny = 8;
        int nz = 32;
        double[] global = randomGrid(3, nx * ny * nz);
        SlabFft serial = new SlabFft(nx, ny, nz, 1, null);
        DoubleArray whole = heap.zeros(global.length);
        serial.forward(heap.of(global), whole);
        double[] spectrum = whole.toArray();
        for (int np : new int[] {2, 4, 8}) {
            int chunk = global.length / np;
            // The heap is single-threaded: every rank's objects are allocated before the ranks start.
            DoubleArray[] x1s = new DoubleArray[np];
            DoubleArray[] x2s = new DoubleArray[np];
            for (int r = 0; r < np; r++) {
                x1s[r] = heap.of(Arrays.copyOfRange(global, r * chunk, (r + 1) * chunk));
                x2s[r] = heap.zeros(chunk);
            }
            List<double[][]> results = ThreadComm.run(np, comm -> {
                SlabFft fft = new SlabFft(nx, ny, nz, np, (send, recv, count) ->
                        comm.alltoall(send.segment(), 0, count, recv.segment(), 0, ElementType.DOUBLE));
                DoubleArray x1 = x1s[comm.rank()];
                DoubleArray x2 = x2s[comm.rank()];
                fft.forward(x1, x2);
                double[] forward = x2.toArray();
                fft.inverse(x2, x1);
                return new double[][] {forward, x1.toArray()};
            });
            for (int r = 0; r < np; r++) {
                double[] expectedSlab = new double[chunk];
                System.arraycopy(spectrum, r * chunk, expectedSlab, 0, chunk);
                assertArrayEquals(expectedSlab, results.get(r)[0], "forward, np=" + np + " rank=" + r);
                double[] back = results.get(r)[1];
                for (int i = 0; i < chunk; i++) {
                    assertEquals(global[r * chunk + i], back[i] / (nx * ny * nz), 1e-15, "np=" + np + " i=" + i);
                }
            }
        }
    }

    /**
     * The tiled transpose against the definition, on heap and on plain objects: tiles cut at the edges (n1 and n2 not
     * multiples of the tile), fewer rows than one four-row pass (n2 of 1, 2, 3) and a count of rows that leaves one,
     * two or three after the four-row passes.
     */
    @Test
    void transposeMatchesTheDefinitionForEveryShapeOfTile() {
        SlabFft fft = new SlabFft(8, 8, 8, 1, null);
        int[][] shapes = {{64, 1}, {64, 2}, {7, 3}, {32, 4}, {40, 33}, {33, 70}, {100, 37}, {5, 66}};
        for (int[] shape : shapes) {
            int n1 = shape[0];
            int n2 = shape[1];
            double[] values = randomGrid(n1 * 31L + n2, n1 * n2);
            double[] expected = new double[values.length];
            for (int j = 0; j < n2; j++) {
                for (int i = 0; i < n1; i++) {
                    expected[2 * (j + n2 * i)] = values[2 * (i + n1 * j)];
                    expected[2 * (j + n2 * i) + 1] = values[2 * (i + n1 * j) + 1];
                }
            }
            DoubleArray heapOut = heap.zeros(values.length);
            fft.transpose(heap.of(values), heapOut, n1, n2);
            assertArrayEquals(expected, heapOut.toArray(), "heap, n1=" + n1 + " n2=" + n2);
            DoubleArray plainOut = DoubleArray.plain("out", values.length, ObjectRole.TEMPORARY);
            DoubleArray plainIn = DoubleArray.plain("in", values.length, ObjectRole.TEMPORARY);
            plainIn.copyFrom(values);
            fft.transpose(plainIn, plainOut, n1, n2);
            assertArrayEquals(expected, plainOut.toArray(), "plain, n1=" + n1 + " n2=" + n2);
        }
    }

    @Test
    void rejectsDecompositionsThatDoNotSplitEvenly() {
        assertThrows(IllegalArgumentException.class, () -> new SlabFft(64, 64, 64, 3, null));
        assertThrows(IllegalArgumentException.class, () -> new SlabFft(128, 128, 32, 64, null));
        assertThrows(IllegalArgumentException.class, () -> new SlabFft(48, 64, 64, 1, null));
    }
}
