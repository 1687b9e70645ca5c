package dev.lazarus.npb.mg;

import dev.lazarus.easycrash.DoubleArray;

/**
 * The serial MG grid operators of NPB's mg.f, on local arrays of extent {@code n1 x n2 x n3} (x fastest, one ghost
 * layer on each side, all indices 0-based). They are written to perform the same floating-point operations in the
 * same order as mg.f, so that the result does not depend on the decomposition. The row buffers are scratch of at
 * least {@code n1} doubles, passed in so that nothing is allocated in the timed loop.
 *
 * <p>One {@link DoubleArray} holds every level of a quantity, as NPB's {@code u(ir(k))} does, so each grid is passed
 * as the array plus the element offset of its level. The loops address elements as a {@code long} row base computed
 * outside the loop plus the {@code int} loop counter (times a constant stride), {@code a.get(row, i)} and
 * {@code a.get(row, i, 2)}: in that form the JIT checks bounds once per loop, not per access, on the persistent heap
 * and on plain arrays alike (see {@link DoubleArray}).
 */
final class MgOps {

    private MgOps() {
    }

    /** Sets the {@code n} elements from {@code off} to zero (NPB's zero3). */
    static void zero3(DoubleArray z, int off, int n) {
        final long base = off;
        for (int i = 0; i < n; i++) {
            z.set(base, i, 0.0);
        }
    }

    /**
     * r = v - A u on the interior (NPB's resid without its comm3). {@code v} and {@code r} may be the same grid,
     * since each point reads only its own v. Like mg.f it assumes {@code a(1) = 0} and drops that term.
     */
    static void resid(DoubleArray u, int uo, DoubleArray v, int vo, DoubleArray r, int ro, int n1, int n2, int n3,
                      double[] a, double[] u1, double[] u2) {
        if (u.lanewiseAccess() && v.lanewiseAccess() && r.lanewiseAccess()) {
            MgLanes.resid(u, uo, v, vo, r, ro, n1, n2, n3, a, u1, u2);
            return;
        }
        final double a0 = a[0];
        final double a2 = a[2];
        final double a3 = a[3];
        final int p = n1 * n2;
        for (int i3 = 1; i3 < n3 - 1; i3++) {
            for (int i2 = 1; i2 < n2 - 1; i2++) {
                final long center = (long) i3 * p + (long) i2 * n1;
                final long c = uo + center;
                final long s = c - n1;
                final long n = c + n1;
                final long b = c - p;
                final long t = c + p;
                final long bs = b - n1;
                final long bn = b + n1;
                final long ts = t - n1;
                final long tn = t + n1;
                for (int i1 = 0; i1 < n1; i1++) {
                    u1[i1] = u.get(s, i1) + u.get(n, i1) + u.get(b, i1) + u.get(t, i1);
                    u2[i1] = u.get(bs, i1) + u.get(bn, i1) + u.get(ts, i1) + u.get(tn, i1);
                }
                final long cv = vo + center;
                final long cr = ro + center;
                for (int i1 = 1; i1 < n1 - 1; i1++) {
                    r.set(cr, i1, v.get(cv, i1) - a0 * u.get(c, i1)
                            - a2 * (u2[i1] + u1[i1 - 1] + u1[i1 + 1])
                            - a3 * (u2[i1 - 1] + u2[i1 + 1]));
                }
            }
        }
    }

    /**
     * u = u + C r on the interior, the smoother (NPB's psinv without its comm3). Like mg.f it assumes
     * {@code c(3) = 0} and drops that term.
     *
     * <p>The row of neighbour sums (r1, r2) is written out as in {@link #resid} on purpose: moved into a shared helper,
     * the heap versions ran 7% (psinv) and 11% (resid) slower in {@code MgLoopsBench}.
     */
    static void psinv(DoubleArray r, int ro, DoubleArray u, int uo, int n1, int n2, int n3, double[] cc,
                      double[] r1, double[] r2) {
        if (r.lanewiseAccess() && u.lanewiseAccess()) {
            MgLanes.psinv(r, ro, u, uo, n1, n2, n3, cc, r1, r2);
            return;
        }
        final double c0 = cc[0];
        final double c1 = cc[1];
        final double c2 = cc[2];
        final int p = n1 * n2;
        for (int i3 = 1; i3 < n3 - 1; i3++) {
            for (int i2 = 1; i2 < n2 - 1; i2++) {
                final long center = (long) i3 * p + (long) i2 * n1;
                final long c = ro + center;
                final long s = c - n1;
                final long n = c + n1;
                final long b = c - p;
                final long t = c + p;
                final long bs = b - n1;
                final long bn = b + n1;
                final long ts = t - n1;
                final long tn = t + n1;
                for (int i1 = 0; i1 < n1; i1++) {
                    r1[i1] = r.get(s, i1) + r.get(n, i1) + r.get(b, i1) + r.get(t, i1);
                    r2[i1] = r.get(bs, i1) + r.get(bn, i1) + r.get(ts, i1) + r.get(tn, i1);
                }
                final long cu = uo + center;
                for (int i1 = 1; i1 < n1 - 1; i1++) {
                    u.set(cu, i1, u.get(cu, i1) + c0 * r.get(c, i1)
                            + c1 * (r.get(c - 1, i1) + r.get(c + 1, i1) + r1[i1])
                            + c2 * (r2[i1] + r1[i1 - 1] + r1[i1 + 1]));
                }
            }
        }
    }

    /**
     * Restricts fine {@code r} ({@code m1k x m2k x m3k} at {@code ro}) to the interior of coarse {@code s}
     * ({@code m1j x m2j x m3j} at {@code so}) with the trilinear finite-element projection (NPB's rprj3 without its
     * comm3). Coarse point {@code j} sits on fine point {@code 2j}; every fine extent must be {@code 2 * coarse
     * extent - 2}. {@code x1} and {@code y1} need {@code m1k} doubles.
     */
    static void rprj3(DoubleArray r, int ro, int m1k, int m2k, int m3k, DoubleArray s, int so, int m1j, int m2j,
                      int m3j, double[] x1, double[] y1) {
        final int pk = m1k * m2k;
        final int pj = m1j * m2j;
        for (int j3 = 1; j3 < m3j - 1; j3++) {
            for (int j2 = 1; j2 < m2j - 1; j2++) {
                final long c = ro + 2L * j3 * pk + 2L * j2 * m1k;
                final long sc = c - m1k;
                final long nc = c + m1k;
                final long b = c - pk;
                final long t = c + pk;
                final long bs = b - m1k;
                final long ts = t - m1k;
                final long bn = b + m1k;
                final long tn = t + m1k;
                // NPB sums the four edge and the four corner neighbours at the odd fine points here and again, as
                // x2 and y2, at the even ones below, each in the same order: one contiguous pass over the eight rows
                // gives both, so the loop below reads three rows of r instead of eleven (MgLoopsBench rprj3, class S
                // heap / plain: 1.15 when the coarse loop read eleven strided rows of the heap, 0.77 now).
                for (int i = 1; i < m1k; i++) {
                    x1[i] = r.get(sc, i) + r.get(nc, i) + r.get(b, i) + r.get(t, i);
                    y1[i] = r.get(bs, i) + r.get(ts, i) + r.get(bn, i) + r.get(tn, i);
                }
                final long out = so + (long) j3 * pj + (long) j2 * m1j;
                // Fine point 2 j1 + d of the centre row is get(c + d, j1, 2), for the offsets -1, 0 and +1.
                for (int j1 = 1; j1 < m1j - 1; j1++) {
                    final int i1 = 2 * j1;
                    s.set(out, j1, 0.5 * r.get(c, j1, 2)
                            + 0.25 * (r.get(c - 1, j1, 2) + r.get(c + 1, j1, 2) + x1[i1])
                            + 0.125 * (x1[i1 - 1] + x1[i1 + 1] + y1[i1])
                            + 0.0625 * (y1[i1 - 1] + y1[i1 + 1]));
                }
            }
        }
    }

    /**
     * Adds the trilinear interpolation of coarse {@code z} ({@code mm1 x mm2 x mm3} at {@code zo}) to fine {@code u}
     * ({@code n1 x n2 x n3} at {@code uo}), ghosts included (NPB's interp). In z the arrays may be slabs: fine local
     * plane {@code L} is serial plane {@code L + fineOff}, coarse local plane {@code L} is serial plane
     * {@code L + coarseOff}, and serial coarse plane {@code C} feeds fine planes {@code 2C} and {@code 2C + 1}. Only
     * the fine planes inside {@code u} are written. {@code z1..z3} need {@code mm1} doubles.
     */
    static void interp(DoubleArray z, int zo, int mm1, int mm2, int coarseOff, DoubleArray u, int uo, int n1,
                       int n2, int n3, int fineOff, double[] z1, double[] z2, double[] z3) {
        final int pc = mm1 * mm2;
        final int pf = n1 * n2;
        final int cEnd = (fineOff + n3 - 1) / 2;
        for (int cs = fineOff / 2; cs <= cEnd; cs++) {
            final int even = 2 * cs - fineOff;
            final boolean doEven = even >= 0;
            final boolean doOdd = even + 1 < n3;
            for (int i2 = 0; i2 < mm2 - 1; i2++) {
                final long zc = zo + (long) (cs - coarseOff) * pc + (long) i2 * mm1;
                final long zn = zc + mm1;
                final long zt = zc + pc;
                final long ztn = zt + mm1;
                for (int i1 = 0; i1 < mm1; i1++) {
                    final double c = z.get(zc, i1);
                    z1[i1] = z.get(zn, i1) + c;
                    z2[i1] = z.get(zt, i1) + c;
                    z3[i1] = z.get(ztn, i1) + z.get(zt, i1) + z1[i1];
                }
                if (doEven) {
                    interpEvenPlane(z, zc, z1, mm1, u, uo + (long) even * pf + 2L * i2 * n1, n1);
                }
                if (doOdd) {
                    interpOddPlane(z2, z3, mm1, u, uo + (long) (even + 1) * pf + 2L * i2 * n1, n1);
                }
            }
        }
    }

    /**
     * The two fine rows (from element {@code ue}) of an even fine plane, which lies on the coarse plane: fine point
     * {@code 2 i1} on coarse point {@code i1}, fine point {@code 2 i1 + 1} halfway to the next.
     */
    private static void interpEvenPlane(DoubleArray z, long zc, double[] z1, int mm1, DoubleArray u, long ue,
                                        int n1) {
        final long zc1 = zc + 1;
        final long ue1 = ue + 1;
        for (int i1 = 0; i1 < mm1 - 1; i1++) {
            final double c = z.get(zc, i1);
            u.set(ue, i1, 2, u.get(ue, i1, 2) + c);
            u.set(ue1, i1, 2, u.get(ue1, i1, 2) + 0.5 * (z.get(zc1, i1) + c));
        }
        final long un = ue + n1;
        final long un1 = un + 1;
        for (int i1 = 0; i1 < mm1 - 1; i1++) {
            u.set(un, i1, 2, u.get(un, i1, 2) + 0.5 * z1[i1]);
            u.set(un1, i1, 2, u.get(un1, i1, 2) + 0.25 * (z1[i1] + z1[i1 + 1]));
        }
    }

    /** The two fine rows (from element {@code ue}) of an odd fine plane, halfway between two coarse planes. */
    private static void interpOddPlane(double[] z2, double[] z3, int mm1, DoubleArray u, long ue, int n1) {
        final long ue1 = ue + 1;
        for (int i1 = 0; i1 < mm1 - 1; i1++) {
            u.set(ue, i1, 2, u.get(ue, i1, 2) + 0.5 * z2[i1]);
            u.set(ue1, i1, 2, u.get(ue1, i1, 2) + 0.25 * (z2[i1] + z2[i1 + 1]));
        }
        final long un = ue + n1;
        final long un1 = un + 1;
        for (int i1 = 0; i1 < mm1 - 1; i1++) {
            u.set(un, i1, 2, u.get(un, i1, 2) + 0.25 * z3[i1]);
            u.set(un1, i1, 2, u.get(un1, i1, 2) + 0.125 * (z3[i1] + z3[i1 + 1]));
        }
    }

    /** Periodic x and y ghosts of the interior planes of the grid at {@code off} (the local part of NPB's comm3). */
    static void comm3xy(DoubleArray u, int off, int n1, int n2, int n3) {
        final int p = n1 * n2;
        for (int i3 = 1; i3 < n3 - 1; i3++) {
            final int base = off + i3 * p;
            for (int i2 = 1; i2 < n2 - 1; i2++) {
                final int row = base + i2 * n1;
                u.set(row, u.get(row + n1 - 2));
                u.set(row + n1 - 1, u.get(row + 1));
            }
            u.copyTo(base + (n2 - 2) * n1, u, base, n1);
            u.copyTo(base + n1, u, base + (n2 - 1) * n1, n1);
        }
    }

    /** Periodic z ghost planes of the grid at {@code off} when it holds the whole period in z. */
    static void comm3zLocal(DoubleArray u, int off, int n1, int n2, int n3) {
        final int p = n1 * n2;
        u.copyTo(off + (n3 - 2) * p, u, off, p);
        u.copyTo(off + p, u, off + (n3 - 1) * p, p);
    }

    /** NPB's comm3 for a grid that holds the whole level. */
    static void comm3(DoubleArray u, int off, int n1, int n2, int n3) {
        comm3xy(u, off, n1, n2, n3);
        comm3zLocal(u, off, n1, n2, n3);
    }

    /**
     * Sum of squares and largest magnitude over the interior of the grid at {@code off}, in mg.f's loop order (the
     * local part of norm2u3).
     *
     * @param out receives {@code {sum of squares, max |r|}}
     */
    static void norm2u3Local(DoubleArray r, int off, int n1, int n2, int n3, double[] out) {
        double s = 0.0;
        double rnmu = 0.0;
        final int p = n1 * n2;
        for (int i3 = 1; i3 < n3 - 1; i3++) {
            for (int i2 = 1; i2 < n2 - 1; i2++) {
                final long row = off + (long) i3 * p + (long) i2 * n1;
                for (int i1 = 1; i1 < n1 - 1; i1++) {
                    final double x = r.get(row, i1);
                    s = s + x * x;
                    rnmu = Math.max(rnmu, Math.abs(x));
                }
            }
        }
        out[0] = s;
        out[1] = rnmu;
    }
}
