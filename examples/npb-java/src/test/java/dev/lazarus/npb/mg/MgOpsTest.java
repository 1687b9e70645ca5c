package dev.lazarus.npb.mg;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The stencil operators against naive periodic formulas written independently of mg.f's row-buffer scheme, and the
 * slab versions against the serial ones plane by plane.
 */
class MgOpsTest {
    private static final int N = 8;
    private static final int M = N + 2;

    /** A full N^3 periodic grid with random interior and consistent ghosts. */
    private static double[] randomGrid(int n, long seed) {
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
        MgOps.comm3(g, m, m, m);
        return g;
    }

    /** Value at periodic interior coordinates (0-based) of a full grid of side n. */
    private static double at(double[] g, int n, int x, int y, int z) {
        int m = n + 2;
        return g[((Math.floorMod(z, n) + 1) * m + Math.floorMod(y, n) + 1) * m + Math.floorMod(x, n) + 1];
    }

    /** Sum over the 27 neighbours of point (x,y,z), weighted by w[number of non-zero offsets]. */
    private static double stencil(double[] g, int n, int x, int y, int z, double[] w) {
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
        double[] u = randomGrid(N, 1);
        double[] v = randomGrid(N, 2);
        double[] r = new double[u.length];
        double[] a = MgParameters.residualCoefficients();
        MgOps.resid(u, v, r, M, M, M, a, scratch(), scratch());
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
        double[] u = new double[M * M * M];
        java.util.Arrays.fill(u, 2.5);
        double[] v = randomGrid(N, 3);
        double[] r = v.clone();
        // In place (v == r), as mg3P calls it: A annihilates constants, so r stays v.
        MgOps.resid(u, r, r, M, M, M, MgParameters.residualCoefficients(), scratch(), scratch());
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
        double[] r = randomGrid(N, 4);
        double[] u0 = randomGrid(N, 5);
        double[] u = u0.clone();
        double[] c = {-3.0 / 17.0, 1.0 / 33.0, -1.0 / 61.0, 0.0};
        MgOps.psinv(r, u, M, M, M, c, scratch(), scratch());
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
        double[] fine = randomGrid(N, 6);
        int nc = N / 2;
        int mc = nc + 2;
        double[] coarse = new double[mc * mc * mc];
        MgOps.rprj3(fine, M, M, M, coarse, mc, mc, mc, scratch(), scratch());
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

    @Test
    void rprj3OfConstantIsFourTimesIt() {
        double[] fine = new double[M * M * M];
        java.util.Arrays.fill(fine, 1.5);
        int mc = N / 2 + 2;
        double[] coarse = new double[mc * mc * mc];
        MgOps.rprj3(fine, M, M, M, coarse, mc, mc, mc, scratch(), scratch());
        assertEquals(6.0, at(coarse, N / 2, 1, 2, 3), 1e-15);
    }

    @Test
    void interpMatchesNaiveTrilinearIncludingGhosts() {
        int nc = N / 2;
        int mc = nc + 2;
        double[] coarse = randomGrid(nc, 7);
        double[] u0 = randomGrid(N, 8);
        double[] u = u0.clone();
        MgOps.interp(coarse, mc, mc, 0, u, M, M, M, 0, scratch(), scratch(), scratch());
        for (int z = -1; z <= N; z++) {
            for (int y = -1; y <= N; y++) {
                for (int x = -1; x <= N; x++) {
                    double expected = at(u0, N, x, y, z) + trilinear(coarse, nc, x, y, z);
                    double actual = u[((z + 1) * M + y + 1) * M + x + 1];
                    assertEquals(expected, actual, 1e-13, "u at " + x + "," + y + "," + z);
                }
            }
        }
    }

    /** Fine point f lies on coarse point (f-1)/2 when odd, halfway between f/2-1 and f/2 when even. */
    private static double trilinear(double[] coarse, int nc, int x, int y, int z) {
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
        double[] coarse = randomGrid(nc, 9);
        double[] full = randomGrid(n, 10);
        double[] serial = full.clone();
        MgOps.interp(coarse, mc, mc, 0, serial, m, m, m, 0, scratch(), scratch(), scratch());
        for (int ranks : new int[] {2, 4, 16}) {
            for (int rank = 0; rank < ranks; rank++) {
                MgGrid grid = new MgGrid(n, ranks, rank);
                int kf = grid.lt;
                int kc = kf - 1;
                double[] slabCoarse = slab(coarse, mc, grid.zOff[kc], grid.m3(kc));
                double[] slabFine = slab(full, m, grid.zOff[kf], grid.m3(kf));
                MgOps.interp(slabCoarse, mc, mc, grid.zOff[kc], slabFine, m, m, grid.m3(kf), grid.zOff[kf],
                        scratch(), scratch(), scratch());
                assertArrayEquals(slab(serial, m, grid.zOff[kf], grid.m3(kf)), slabFine,
                        "ranks=" + ranks + " rank=" + rank);
            }
        }
    }

    @Test
    void slabRestrictionReproducesSerialPlanesExactly() {
        int n = 16;
        int m = n + 2;
        int mc = n / 2 + 2;
        double[] fine = randomGrid(n, 11);
        double[] serial = new double[mc * mc * mc];
        MgOps.rprj3(fine, m, m, m, serial, mc, mc, mc, scratch(), scratch());
        for (int ranks : new int[] {2, 4, 8}) {
            for (int rank = 0; rank < ranks; rank++) {
                MgGrid grid = new MgGrid(n, ranks, rank);
                int kf = grid.lt;
                int kc = kf - 1;
                double[] slabCoarse = new double[grid.size(kc)];
                MgOps.rprj3(slab(fine, m, grid.zOff[kf], grid.m3(kf)), m, m, grid.m3(kf),
                        slabCoarse, mc, mc, grid.m3(kc), scratch(), scratch());
                double[] expected = slab(serial, mc, grid.zOff[kc], grid.m3(kc));
                // Only the interior planes are computed; the ghosts come from the exchange.
                int plane = mc * mc;
                for (int i = plane; i < (grid.m3(kc) - 1) * plane; i++) {
                    assertEquals(expected[i], slabCoarse[i], 0.0, "ranks=" + ranks + " rank=" + rank + " at " + i);
                }
            }
        }
    }

    /** Planes {@code off .. off+m3-1} of a full array with {@code m x m} planes. */
    private static double[] slab(double[] full, int m, int off, int m3) {
        double[] s = new double[m * m * m3];
        System.arraycopy(full, off * m * m, s, 0, s.length);
        return s;
    }

    @Test
    void norm2u3SumsInteriorOnly() {
        double[] r = new double[M * M * M];
        // Ghost cells hold large values that must not count.
        java.util.Arrays.fill(r, 100.0);
        for (int z = 1; z <= N; z++) {
            for (int y = 1; y <= N; y++) {
                for (int x = 1; x <= N; x++) {
                    r[(z * M + y) * M + x] = x == 1 && y == 1 && z == 1 ? -3.0 : 1.0;
                }
            }
        }
        double[] out = new double[2];
        MgOps.norm2u3Local(r, M, M, M, out);
        assertEquals(N * N * N - 1 + 9.0, out[0], 0.0);
        assertEquals(3.0, out[1], 0.0);
    }
}
