package dev.lazarus.npb.mg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lazarus.easycrash.DoubleArray;
import dev.lazarus.npb.testing.TestHeap;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stencil operators against naive periodic formulas written independently of mg.f's row-buffer scheme, the slab
 * versions against the serial ones plane by plane, and grids at level offsets inside one object against grids at 0.
 */
class MgOpsTest {
    private static final int N = 8;
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

    /** A full N^3 periodic grid with random interior and consistent ghosts. */
    private DoubleArray randomGrid(int n, long seed) {
        int m = n + 2;
        double[] g = new double[m * m * m];
        Random random = new Random(seed);
        for (int z = 1; z <= n; z++) {
            for (int y = 1; y <= n; y++) {
                for (int x = 1; x <= n; x++) {
                    g[(z * m + y) * m + x] = random.nextDouble() - 0.5;
                }
            }
        }
        DoubleArray grid = heap.of(g);
        MgOps.comm3(grid, 0, m, m, m);
        return grid;
    }

    /** Value at periodic interior coordinates (0-based) of a full grid of side n. */
    private static double at(DoubleArray g, int n, int x, int y, int z) {
        int m = n + 2;
        return g.get(((Math.floorMod(z, n) + 1) * m + Math.floorMod(y, n) + 1) * m + Math.floorMod(x, n) + 1);
    }

    /** Sum over the 27 neighbours of point (x,y,z), weighted by w[number of non-zero offsets]. */
    private static double stencil(DoubleArray g, int n, int x, int y, int z, double[] w) {
        double sum = 0.0;
        for (int dz = -1; dz <= 1; dz++) {
            for (int dy = -1; dy <= 1; dy++) {
                for (int dx = -1; dx <= 1; dx++) {
                    int nz = Math.abs(dx) + Math.abs(dy) + Math.abs(dz);
                    sum += w[nz] * at(g, n, x + dx, y + dy, z + dz);
                }
            }
        }
        return sum;
    }

    private static double[] scratch() {
        return new double[64];
    }

    @Test
    void residMatchesNaivePeriodicStencil() {
        DoubleArray u = randomGrid(N, 1);
        DoubleArray v = randomGrid(N, 2);
        DoubleArray r = heap.zeros(u.length());
        double[] a = MgParameters.residualCoefficients();
        MgOps.resid(u, 0, v, 0, r, 0, M, M, M, a, scratch(), scratch());
        for (int z = 0; z < N; z++) {
            for (int y = 0; y < N; y++) {
                for (int x = 0; x < N; x++) {
                    double expected = at(v, N, x, y, z) - stencil(u, N, x, y, z, a);
                    assertEquals(expected, at(r, N, x, y, z), 1e-13, "r at " + x + "," + y + "," + z);
                }
            }
        }
    }

    @Test
    void residOfConstantLeavesRightHandSide() {
        DoubleArray u = heap.zeros(M * M * M);
        u.fill(2.5);
        DoubleArray v = randomGrid(N, 3);
        DoubleArray r = heap.copy(v);
        // In place (v == r), as mg3P calls it: A annihilates constants, so r stays v.
        MgOps.resid(u, 0, r, 0, r, 0, M, M, M, MgParameters.residualCoefficients(), scratch(), scratch());
        for (int z = 0; z < N; z++) {
            for (int y = 0; y < N; y++) {
                for (int x = 0; x < N; x++) {
                    assertEquals(at(v, N, x, y, z), at(r, N, x, y, z), 1e-14);
                }
            }
        }
    }

    @Test
    void psinvMatchesNaivePeriodicStencil() {
        DoubleArray r = randomGrid(N, 4);
        DoubleArray u0 = randomGrid(N, 5);
        DoubleArray u = heap.copy(u0);
        double[] c = {-3.0 / 17.0, 1.0 / 33.0, -1.0 / 61.0, 0.0};
        MgOps.psinv(r, 0, u, 0, M, M, M, c, scratch(), scratch());
        for (int z = 0; z < N; z++) {
            for (int y = 0; y < N; y++) {
                for (int x = 0; x < N; x++) {
                    double expected = at(u0, N, x, y, z) + stencil(r, N, x, y, z, c);
                    assertEquals(expected, at(u, N, x, y, z), 1e-13);
                }
            }
        }
    }

    @Test
    void rprj3MatchesNaiveProjection() {
        DoubleArray fine = randomGrid(N, 6);
        int nc = N / 2;
        int mc = nc + 2;
        DoubleArray coarse = heap.zeros(mc * mc * mc);
        MgOps.rprj3(fine, 0, M, M, M, coarse, 0, mc, mc, mc, scratch(), scratch());
        double[] w = {0.5, 0.25, 0.125, 0.0625};
        for (int z = 0; z < nc; z++) {
            for (int y = 0; y < nc; y++) {
                for (int x = 0; x < nc; x++) {
                    // Coarse point c sits on fine interior point 2c+1.
                    double expected = stencil(fine, N, 2 * x + 1, 2 * y + 1, 2 * z + 1, w);
                    assertEquals(expected, at(coarse, nc, x, y, z), 1e-13);
                }
            }
        }
    }

    /**
     * rprj3 sums each fine row's neighbours once, for odd and even points alike; NPB sums the even points' again in
     * its coarse loop, in the same order, so the projection is NPB's loop's to the bit.
     */
    @Test
    void rprj3IsNpbsLoopToTheBit() {
        DoubleArray fine = randomGrid(N, 7);
        int mc = N / 2 + 2;
        DoubleArray coarse = heap.zeros(mc * mc * mc);
        MgOps.rprj3(fine, 0, M, M, M, coarse, 0, mc, mc, mc, scratch(), scratch());
        double[] r = fine.toArray();
        double[] x1 = new double[M];
        double[] y1 = new double[M];
        for (int j3 = 1; j3 < mc - 1; j3++) {
            for (int j2 = 1; j2 < mc - 1; j2++) {
                int c = 2 * j3 * M * M + 2 * j2 * M;
                int sc = c - M;
                int nc = c + M;
                int b = c - M * M;
                int t = c + M * M;
                for (int j1 = 1; j1 < mc; j1++) { // NPB's first loop: the odd fine points
                    int i = 2 * j1 - 1;
                    x1[i] = r[sc + i] + r[nc + i] + r[b + i] + r[t + i];
                    y1[i] = r[b - M + i] + r[t - M + i] + r[b + M + i] + r[t + M + i];
                }
                for (int j1 = 1; j1 < mc - 1; j1++) {
                    int i1 = 2 * j1;
                    double y2 = r[b - M + i1] + r[t - M + i1] + r[b + M + i1] + r[t + M + i1];
                    double x2 = r[sc + i1] + r[nc + i1] + r[b + i1] + r[t + i1];
                    double expected = 0.5 * r[c + i1] + 0.25 * (r[c + i1 - 1] + r[c + i1 + 1] + x2)
                            + 0.125 * (x1[i1 - 1] + x1[i1 + 1] + y2) + 0.0625 * (y1[i1 - 1] + y1[i1 + 1]);
                    assertEquals(Double.doubleToRawLongBits(expected),
                            Double.doubleToRawLongBits(coarse.get(j3 * mc * mc + j2 * mc + j1)),
                            "coarse " + j1 + "," + j2 + "," + j3);
                }
            }
        }
    }

    @Test
    void rprj3OfConstantIsFourTimesIt() {
        DoubleArray fine = heap.zeros(M * M * M);
        fine.fill(1.5);
        int mc = N / 2 + 2;
        DoubleArray coarse = heap.zeros(mc * mc * mc);
        MgOps.rprj3(fine, 0, M, M, M, coarse, 0, mc, mc, mc, scratch(), scratch());
        assertEquals(6.0, at(coarse, N / 2, 1, 2, 3), 1e-15);
    }

    @Test
    void interpMatchesNaiveTrilinearIncludingGhosts() {
        int nc = N / 2;
        int mc = nc + 2;
        DoubleArray coarse = randomGrid(nc, 7);
        DoubleArray u0 = randomGrid(N, 8);
        DoubleArray u = heap.copy(u0);
        MgOps.interp(coarse, 0, mc, mc, 0, u, 0, M, M, M, 0, scratch(), scratch(), scratch());
        for (int z = -1; z <= N; z++) {
            for (int y = -1; y <= N; y++) {
                for (int x = -1; x <= N; x++) {
                    double expected = at(u0, N, x, y, z) + trilinear(coarse, nc, x, y, z);
                    double actual = u.get(((z + 1) * M + y + 1) * M + x + 1);
                    assertEquals(expected, actual, 1e-13, "u at " + x + "," + y + "," + z);
                }
            }
        }
    }

    /** Fine point f lies on coarse point (f-1)/2 when odd, halfway between f/2-1 and f/2 when even. */
    private static double trilinear(DoubleArray coarse, int nc, int x, int y, int z) {
        double sum = 0.0;
        for (int cz : corners(z)) {
            for (int cy : corners(y)) {
                for (int cx : corners(x)) {
                    sum += weight(z) * weight(y) * weight(x) * at(coarse, nc, cx, cy, cz);
                }
            }
        }
        return sum;
    }

    private static int[] corners(int f) {
        return Math.floorMod(f, 2) == 1 ? new int[] {Math.floorDiv(f - 1, 2)} : new int[] {f / 2 - 1, f / 2};
    }

    private static double weight(int f) {
        return Math.floorMod(f, 2) == 1 ? 1.0 : 0.5;
    }

    @Test
    void slabInterpReproducesSerialPlanesExactly() {
        int n = 16;
        int m = n + 2;
        int nc = n / 2;
        int mc = nc + 2;
        DoubleArray coarse = randomGrid(nc, 9);
        DoubleArray full = randomGrid(n, 10);
        DoubleArray serial = heap.copy(full);
        MgOps.interp(coarse, 0, mc, mc, 0, serial, 0, m, m, m, 0, scratch(), scratch(), scratch());
        for (int ranks : new int[] {2, 4, 16}) {
            for (int rank = 0; rank < ranks; rank++) {
                MgGrid grid = new MgGrid(n, ranks, rank);
                int kf = grid.lt;
                int kc = kf - 1;
                DoubleArray slabCoarse = heap.of(slab(coarse, mc, grid.zOff[kc], grid.m3(kc)));
                DoubleArray slabFine = heap.of(slab(full, m, grid.zOff[kf], grid.m3(kf)));
                MgOps.interp(slabCoarse, 0, mc, mc, grid.zOff[kc], slabFine, 0, m, m, grid.m3(kf), grid.zOff[kf],
                        scratch(), scratch(), scratch());
                assertArrayEquals(slab(serial, m, grid.zOff[kf], grid.m3(kf)), slabFine.toArray(),
                        "ranks=" + ranks + " rank=" + rank);
            }
        }
    }

    @Test
    void slabRestrictionReproducesSerialPlanesExactly() {
        int n = 16;
        int m = n + 2;
        int mc = n / 2 + 2;
        DoubleArray fine = randomGrid(n, 11);
        DoubleArray serial = heap.zeros(mc * mc * mc);
        MgOps.rprj3(fine, 0, m, m, m, serial, 0, mc, mc, mc, scratch(), scratch());
        for (int ranks : new int[] {2, 4, 8}) {
            for (int rank = 0; rank < ranks; rank++) {
                MgGrid grid = new MgGrid(n, ranks, rank);
                int kf = grid.lt;
                int kc = kf - 1;
                DoubleArray slabCoarse = heap.zeros(grid.size(kc));
                MgOps.rprj3(heap.of(slab(fine, m, grid.zOff[kf], grid.m3(kf))), 0, m, m, grid.m3(kf),
                        slabCoarse, 0, mc, mc, grid.m3(kc), scratch(), scratch());
                double[] expected = slab(serial, mc, grid.zOff[kc], grid.m3(kc));
                // Only the interior planes are computed; the ghosts come from the exchange.
                int plane = mc * mc;
                for (int i = plane; i < (grid.m3(kc) - 1) * plane; i++) {
                    assertEquals(expected[i], slabCoarse.get(i), 0.0, "ranks=" + ranks + " rank=" + rank + " at " + i);
                }
            }
        }
    }

    /** Planes {@code off .. off+m3-1} of a full array with {@code m x m} planes. */
    private static double[] slab(DoubleArray full, int m, int off, int m3) {
        return Arrays.copyOfRange(full.toArray(), off * m * m, (off + m3) * m * m);
    }

    @Test
    void norm2u3SumsInteriorOnly() {
        double[] r = new double[M * M * M];
        // Ghost cells hold large values that must not count.
        Arrays.fill(r, 100.0);
        for (int z = 1; z <= N; z++) {
            for (int y = 1; y <= N; y++) {
                for (int x = 1; x <= N; x++) {
                    r[(z * M + y) * M + x] = x == 1 && y == 1 && z == 1 ? -3.0 : 1.0;
                }
            }
        }
        double[] out = new double[2];
        MgOps.norm2u3Local(heap.of(r), 0, M, M, M, out);
        assertEquals(N * N * N - 1 + 9.0, out[0], 0.0);
        assertEquals(3.0, out[1], 0.0);
    }

    /**
     * The kernel keeps every level of u and r in one object: each operator must give the same result for grids at
     * level offsets (here odd, unaligned to anything) as for grids at element 0.
     */
    @Test
    void operatorsAtLevelOffsetsMatchOperatorsAtZero() {
        int mc = N / 2 + 2;
        int fineSize = M * M * M;
        int coarseSize = mc * mc * mc;
        int uOff = 13;
        int vOff = 5;
        int rOff = 29;
        DoubleArray u = randomGrid(N, 12);
        DoubleArray v = randomGrid(N, 13);
        DoubleArray coarse = randomGrid(N / 2, 14);
        DoubleArray r = heap.zeros(fineSize);
        DoubleArray s = heap.zeros(coarseSize);
        // The same grids inside larger objects: u's levels (fine, coarse), v alone, r's levels (fine, coarse).
        DoubleArray uLevels = heap.zeros(uOff + fineSize + coarseSize);
        DoubleArray vLevel = heap.zeros(vOff + fineSize);
        DoubleArray rLevels = heap.zeros(rOff + fineSize + coarseSize);
        for (int i = 0; i < fineSize; i++) {
            uLevels.set(uOff + i, u.get(i));
            vLevel.set(vOff + i, v.get(i));
        }
        int cOff = uOff + fineSize;
        for (int i = 0; i < coarseSize; i++) {
            uLevels.set(cOff + i, coarse.get(i));
        }
        double[] a = MgParameters.residualCoefficients();
        double[] c = MgParameters.of(dev.lazarus.npb.common.ProblemClass.S).c();

        MgOps.resid(u, 0, v, 0, r, 0, M, M, M, a, scratch(), scratch());
        MgOps.resid(uLevels, uOff, vLevel, vOff, rLevels, rOff, M, M, M, a, scratch(), scratch());
        MgOps.rprj3(r, 0, M, M, M, s, 0, mc, mc, mc, scratch(), scratch());
        MgOps.rprj3(rLevels, rOff, M, M, M, rLevels, rOff + fineSize, mc, mc, mc, scratch(), scratch());
        MgOps.interp(coarse, 0, mc, mc, 0, u, 0, M, M, M, 0, scratch(), scratch(), scratch());
        MgOps.interp(uLevels, cOff, mc, mc, 0, uLevels, uOff, M, M, M, 0, scratch(), scratch(), scratch());
        MgOps.psinv(r, 0, u, 0, M, M, M, c, scratch(), scratch());
        MgOps.psinv(rLevels, rOff, uLevels, uOff, M, M, M, c, scratch(), scratch());

        double[] uAll = uLevels.toArray();
        double[] rAll = rLevels.toArray();
        assertArrayEquals(u.toArray(), Arrays.copyOfRange(uAll, uOff, uOff + fineSize));
        assertArrayEquals(r.toArray(), Arrays.copyOfRange(rAll, rOff, rOff + fineSize));
        assertArrayEquals(s.toArray(), Arrays.copyOfRange(rAll, rOff + fineSize, rOff + fineSize + coarseSize));
        assertArrayEquals(coarse.toArray(), Arrays.copyOfRange(uAll, cOff, cOff + coarseSize), "coarse u intact");
        assertEquals(0.0, uAll[uOff - 1], 0.0, "nothing written before the level");
    }
}
