package dev.lazarus.npb.mg;

import dev.lazarus.easycrash.DoubleArray;
import dev.lazarus.mpi.Comm;
import dev.lazarus.npb.common.NpbRandom;

/**
 * NPB's zran3: the right-hand side v is zero except for +1 at the ten points where the NPB random field is largest
 * and -1 at the ten where it is smallest, chosen over the whole grid. The field gives serial grid point
 * {@code (x, y, z)} the {@code (x + nx*(y + ny*z) + 1)}-th number of the sequence from seed 314159265, so each rank
 * fills its slab by jumping ahead, independent of the decomposition. The grid is the top-level local array at element
 * 0 of a persistent-heap object.
 */
final class MgInit {
    /** Number of charges of each sign (NPB's mm). */
    static final int MM = 10;
    private static final double SEED = 314159265.0;

    private MgInit() {
    }

    /** Fills the interior of the top-level local array {@code z} with the random field (serial zran3's fill). */
    static void fillRandom(DoubleArray z, MgGrid grid) {
        final int k = grid.lt;
        final int n = grid.nx[k];
        final int m1 = grid.m1(k);
        final double a = NpbRandom.A;
        final double a1 = NpbRandom.power(a, n);
        final double a2 = NpbRandom.power(a, (long) n * n);
        final double[] numbers = new double[n];
        MgOps.zero3(z, 0, grid.size(k));
        final NpbRandom plane = new NpbRandom(SEED);
        plane.randlc(NpbRandom.power(a, (long) n * n * grid.zOff[k]));
        final NpbRandom row = new NpbRandom(0.0);
        for (int i3 = 1; i3 <= grid.nzl[k]; i3++) {
            final NpbRandom line = new NpbRandom(plane.seed());
            for (int i2 = 1; i2 <= n; i2++) {
                row.seed(line.seed());
                row.vranlc(n, a, numbers, 0);
                z.copyFrom(numbers, 0, (i3 * m1 + i2) * m1 + 1, n);
                line.randlc(a1);
            }
            plane.randlc(a2);
        }
    }

    /**
     * NPB's zran3 on the top-level local array {@code z}: fills the field, picks the global extremes, sets the
     * charges and the ghosts.
     */
    static void zran3(DoubleArray z, MgGrid grid, Comm comm, MgHalo halo) {
        fillRandom(z, grid);
        final double[] mine = localCandidates(z, grid);
        final double[] all = new double[4 * MM * grid.ranks];
        comm.allgather(mine, 0, 4 * MM, all, 0);
        final long[] plus = new long[MM];
        final long[] minus = new long[MM];
        selectGlobal(all, grid.ranks, plus, minus);
        MgOps.zero3(z, 0, grid.size(grid.lt));
        // -1 first and +1 second, as in mg.f, should a point ever be in both lists.
        setCharges(z, grid, minus, -1.0);
        setCharges(z, grid, plus, +1.0);
        halo.comm3(z, 0, grid.lt);
    }

    /**
     * This rank's ten largest and ten smallest values with their serial linear indices, found with mg.f's bubble
     * scheme. Layout: largest values, their indices, smallest values, their indices ({@code MM} each); an index of -1
     * marks an empty slot.
     */
    static double[] localCandidates(DoubleArray z, MgGrid grid) {
        final int k = grid.lt;
        final int n = grid.nx[k];
        final int m1 = grid.m1(k);
        final double[] big = new double[MM];
        final long[] bigAt = new long[MM];
        final double[] small = new double[MM];
        final long[] smallAt = new long[MM];
        for (int i = 0; i < MM; i++) {
            big[i] = 0.0;
            small[i] = 1.0;
            bigAt[i] = -1;
            smallAt[i] = -1;
        }
        for (int i3 = 1; i3 <= grid.nzl[k]; i3++) {
            for (int i2 = 1; i2 <= n; i2++) {
                final long row = (long) (i3 * m1 + i2) * m1;
                for (int i1 = 1; i1 <= n; i1++) {
                    final double x = z.get(row, i1);
                    final long at = (i1 - 1) + (long) n * ((i2 - 1) + (long) n * (grid.zOff[k] + i3 - 1));
                    if (x > big[0]) {
                        big[0] = x;
                        bigAt[0] = at;
                        bubble(big, bigAt, true);
                    }
                    if (x < small[0]) {
                        small[0] = x;
                        smallAt[0] = at;
                        bubble(small, smallAt, false);
                    }
                }
            }
        }
        final double[] out = new double[4 * MM];
        for (int i = 0; i < MM; i++) {
            out[i] = big[i];
            out[MM + i] = bigAt[i];
            out[2 * MM + i] = small[i];
            out[3 * MM + i] = smallAt[i];
        }
        return out;
    }

    /**
     * mg.f's bubble: after slot 0 was replaced, moves it up so that slot 0 again holds the weakest candidate
     * (smallest of the largest when {@code ascending}, largest of the smallest otherwise).
     */
    static void bubble(double[] ten, long[] at, boolean ascending) {
        for (int i = 0; i < ten.length - 1; i++) {
            final boolean swap = ascending ? ten[i] > ten[i + 1] : ten[i] < ten[i + 1];
            if (!swap) {
                return;
            }
            final double t = ten[i + 1];
            ten[i + 1] = ten[i];
            ten[i] = t;
            final long j = at[i + 1];
            at[i + 1] = at[i];
            at[i] = j;
        }
    }

    /**
     * Picks the global ten largest and ten smallest from every rank's candidates (the union of per-rank top tens
     * holds the global top ten). Equal values are ordered by the larger index, which is deterministic on every rank.
     */
    static void selectGlobal(double[] all, int ranks, long[] plus, long[] minus) {
        pick(all, ranks, 0, true, plus);
        pick(all, ranks, 2 * MM, false, minus);
    }

    private static void pick(double[] all, int ranks, int first, boolean largest, long[] chosen) {
        final int count = ranks * MM;
        final boolean[] taken = new boolean[count];
        for (int c = 0; c < MM; c++) {
            int best = -1;
            for (int q = 0; q < count; q++) {
                final int v = slot(q, first);
                if (taken[q] || all[v + MM] < 0) {
                    continue;
                }
                final int b = best < 0 ? -1 : slot(best, first);
                if (best < 0 || better(all[v], all[v + MM], all[b], all[b + MM], largest)) {
                    best = q;
                }
            }
            if (best < 0) {
                chosen[c] = -1;
            } else {
                taken[best] = true;
                chosen[c] = (long) all[slot(best, first) + MM];
            }
        }
    }

    /** Position in the gathered array of candidate {@code q} (rank {@code q / MM}, slot {@code q % MM}). */
    private static int slot(int q, int first) {
        return (q / MM) * 4 * MM + first + q % MM;
    }

    private static boolean better(double value, double at, double bestValue, double bestAt, boolean largest) {
        if (value != bestValue) {
            return largest ? value > bestValue : value < bestValue;
        }
        return at > bestAt;
    }

    /** Sets {@code value} at each chosen serial index that lies in this rank's slab. */
    private static void setCharges(DoubleArray z, MgGrid grid, long[] chosen, double value) {
        final int k = grid.lt;
        final long n = grid.nx[k];
        final int m1 = grid.m1(k);
        for (long at : chosen) {
            if (at < 0) {
                continue;
            }
            final int x = (int) (at % n);
            final int y = (int) ((at / n) % n);
            final int zl = (int) (at / (n * n)) - grid.zOff[k] + 1;
            if (zl >= 1 && zl <= grid.nzl[k]) {
                z.set((zl * m1 + y + 1) * m1 + x + 1, value);
            }
        }
    }
}
