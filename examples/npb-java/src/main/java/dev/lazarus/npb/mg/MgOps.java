package dev.lazarus.npb.mg;

import dev.lazarus.easycrash.DoubleArray;

import java.lang.foreign.MemorySegment;

import static dev.lazarus.npb.mg.HeapAccess.load;
import static dev.lazarus.npb.mg.HeapAccess.store;

/**
 * The serial MG grid operators of NPB's mg.f, on local arrays of extent {@code n1 x n2 x n3} (x fastest, one ghost
 * layer on each side, all indices 0-based). They are written to perform the same floating-point operations in the
 * same order as mg.f, so that the result does not depend on the decomposition. The row buffers are scratch of at
 * least {@code n1} doubles, passed in so that nothing is allocated in the timed loop.
 *
 * <p>The grids are persistent-heap objects: one {@link DoubleArray} holds every level of a quantity, as NPB's
 * {@code u(ir(k))} does, so each grid is passed as the array plus the element offset of its level. Inside, the loops
 * address the objects' memory by byte offset through {@link HeapAccess} (see there why); the byte offsets of a row
 * are computed once per row as {@code long}s.
 */
final class MgOps {
    /** Bytes per element. */
    private static final long B = 8L;

    private MgOps() {
    }

    /** Sets the {@code n} elements from {@code off} to zero (NPB's zero3). */
    static void zero3(DoubleArray z, int off, int n) {
        final MemorySegment zm = z.segment();
        final long base = B * off;
        for (int i = 0; i < n; i++) {
            store(z, zm, base + B * i, 0.0);
        }
    }

    /**
     * r = v - A u on the interior (NPB's resid without its comm3). {@code v} and {@code r} may be the same grid,
     * since each point reads only its own v. Like mg.f it assumes {@code a(1) = 0} and drops that term.
     */
    static void resid(DoubleArray u, int uo, DoubleArray v, int vo, DoubleArray r, int ro, int n1, int n2, int n3,
                      double[] a, double[] u1, double[] u2) {
        final MemorySegment um = u.segment();
        final MemorySegment vm = v.segment();
        final MemorySegment rm = r.segment();
        final double a0 = a[0];
        final double a2 = a[2];
        final double a3 = a[3];
        final int p = n1 * n2;
        final long row = B * n1;
        final long plane = B * p;
        for (int i3 = 1; i3 < n3 - 1; i3++) {
            for (int i2 = 1; i2 < n2 - 1; i2++) {
                final int center = i3 * p + i2 * n1;
                final long c = B * (uo + center);
                final long s = c - row;
                final long n = c + row;
                final long b = c - plane;
                final long t = c + plane;
                for (int i1 = 0; i1 < n1; i1++) {
                    final long o = B * i1;
                    u1[i1] = load(u, um, s + o) + load(u, um, n + o) + load(u, um, b + o) + load(u, um, t + o);
                    u2[i1] = load(u, um, b - row + o) + load(u, um, b + row + o) + load(u, um, t - row + o)
                            + load(u, um, t + row + o);
                }
                final long cv = B * (vo + center);
                final long cr = B * (ro + center);
                for (int i1 = 1; i1 < n1 - 1; i1++) {
                    final long o = B * i1;
                    store(r, rm, cr + o, load(v, vm, cv + o) - a0 * load(u, um, c + o)
                            - a2 * (u2[i1] + u1[i1 - 1] + u1[i1 + 1])
                            - a3 * (u2[i1 - 1] + u2[i1 + 1]));
                }
            }
        }
    }

    /**
     * u = u + C r on the interior, the smoother (NPB's psinv without its comm3). Like mg.f it assumes
     * {@code c(3) = 0} and drops that term.
     */
    static void psinv(DoubleArray r, int ro, DoubleArray u, int uo, int n1, int n2, int n3, double[] cc,
                      double[] r1, double[] r2) {
        final MemorySegment rm = r.segment();
        final MemorySegment um = u.segment();
        final double c0 = cc[0];
        final double c1 = cc[1];
        final double c2 = cc[2];
        final int p = n1 * n2;
        final long row = B * n1;
        final long plane = B * p;
        for (int i3 = 1; i3 < n3 - 1; i3++) {
            for (int i2 = 1; i2 < n2 - 1; i2++) {
                final int center = i3 * p + i2 * n1;
                final long c = B * (ro + center);
                final long s = c - row;
                final long n = c + row;
                final long b = c - plane;
                final long t = c + plane;
                for (int i1 = 0; i1 < n1; i1++) {
                    final long o = B * i1;
                    r1[i1] = load(r, rm, s + o) + load(r, rm, n + o) + load(r, rm, b + o) + load(r, rm, t + o);
                    r2[i1] = load(r, rm, b - row + o) + load(r, rm, b + row + o) + load(r, rm, t - row + o)
                            + load(r, rm, t + row + o);
                }
                final long cu = B * (uo + center);
                for (int i1 = 1; i1 < n1 - 1; i1++) {
                    final long o = B * i1;
                    store(u, um, cu + o, load(u, um, cu + o) + c0 * load(r, rm, c + o)
                            + c1 * (load(r, rm, c + o - B) + load(r, rm, c + o + B) + r1[i1])
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
        final MemorySegment rm = r.segment();
        final MemorySegment sm = s.segment();
        final int pk = m1k * m2k;
        final int pj = m1j * m2j;
        final long row = B * m1k;
        final long plane = B * pk;
        for (int j3 = 1; j3 < m3j - 1; j3++) {
            for (int j2 = 1; j2 < m2j - 1; j2++) {
                final long c = B * (ro + 2 * j3 * pk + 2 * j2 * m1k);
                final long sc = c - row;
                final long nc = c + row;
                final long b = c - plane;
                final long t = c + plane;
                for (int j1 = 1; j1 < m1j; j1++) {
                    final int i = 2 * j1 - 1;
                    final long o = B * i;
                    x1[i] = load(r, rm, sc + o) + load(r, rm, nc + o) + load(r, rm, b + o) + load(r, rm, t + o);
                    y1[i] = load(r, rm, b - row + o) + load(r, rm, t - row + o) + load(r, rm, b + row + o)
                            + load(r, rm, t + row + o);
                }
                final long out = B * (so + j3 * pj + j2 * m1j);
                for (int j1 = 1; j1 < m1j - 1; j1++) {
                    final int i1 = 2 * j1;
                    final long o = B * i1;
                    final double y2 = load(r, rm, b - row + o) + load(r, rm, t - row + o) + load(r, rm, b + row + o)
                            + load(r, rm, t + row + o);
                    final double x2 = load(r, rm, sc + o) + load(r, rm, nc + o) + load(r, rm, b + o)
                            + load(r, rm, t + o);
                    store(s, sm, out + B * j1, 0.5 * load(r, rm, c + o)
                            + 0.25 * (load(r, rm, c + o - B) + load(r, rm, c + o + B) + x2)
                            + 0.125 * (x1[i1 - 1] + x1[i1 + 1] + y2)
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
        final MemorySegment zm = z.segment();
        final int pc = mm1 * mm2;
        final int pf = n1 * n2;
        final long coarseRow = B * mm1;
        final int cEnd = (fineOff + n3 - 1) / 2;
        for (int cs = fineOff / 2; cs <= cEnd; cs++) {
            final int even = 2 * cs - fineOff;
            final boolean doEven = even >= 0;
            final boolean doOdd = even + 1 < n3;
            for (int i2 = 0; i2 < mm2 - 1; i2++) {
                final long zc = B * (zo + (cs - coarseOff) * pc + i2 * mm1);
                final long zn = zc + coarseRow;
                final long zt = zc + B * pc;
                for (int i1 = 0; i1 < mm1; i1++) {
                    final long o = B * i1;
                    final double c = load(z, zm, zc + o);
                    z1[i1] = load(z, zm, zn + o) + c;
                    z2[i1] = load(z, zm, zt + o) + c;
                    z3[i1] = load(z, zm, zt + coarseRow + o) + load(z, zm, zt + o) + z1[i1];
                }
                if (doEven) {
                    interpEvenPlane(z, zc, z1, mm1, u, B * (uo + even * pf + 2 * i2 * n1), n1);
                }
                if (doOdd) {
                    interpOddPlane(z2, z3, mm1, u, B * (uo + (even + 1) * pf + 2 * i2 * n1), n1);
                }
            }
        }
    }

    /** The two fine rows (from byte {@code ue}) of an even fine plane, which lies on the coarse plane. */
    private static void interpEvenPlane(DoubleArray z, long zc, double[] z1, int mm1, DoubleArray u, long ue,
                                        int n1) {
        final MemorySegment zm = z.segment();
        final MemorySegment um = u.segment();
        for (int i1 = 0; i1 < mm1 - 1; i1++) {
            final long e = ue + 2 * B * i1;
            final long o = zc + B * i1;
            final double c = load(z, zm, o);
            store(u, um, e, load(u, um, e) + c);
            store(u, um, e + B, load(u, um, e + B) + 0.5 * (load(z, zm, o + B) + c));
        }
        final long uo = ue + B * n1;
        for (int i1 = 0; i1 < mm1 - 1; i1++) {
            final long e = uo + 2 * B * i1;
            store(u, um, e, load(u, um, e) + 0.5 * z1[i1]);
            store(u, um, e + B, load(u, um, e + B) + 0.25 * (z1[i1] + z1[i1 + 1]));
        }
    }

    /** The two fine rows (from byte {@code ue}) of an odd fine plane, halfway between two coarse planes. */
    private static void interpOddPlane(double[] z2, double[] z3, int mm1, DoubleArray u, long ue, int n1) {
        final MemorySegment um = u.segment();
        for (int i1 = 0; i1 < mm1 - 1; i1++) {
            final long e = ue + 2 * B * i1;
            store(u, um, e, load(u, um, e) + 0.5 * z2[i1]);
            store(u, um, e + B, load(u, um, e + B) + 0.25 * (z2[i1] + z2[i1 + 1]));
        }
        final long uo = ue + B * n1;
        for (int i1 = 0; i1 < mm1 - 1; i1++) {
            final long e = uo + 2 * B * i1;
            store(u, um, e, load(u, um, e) + 0.25 * z3[i1]);
            store(u, um, e + B, load(u, um, e + B) + 0.125 * (z3[i1] + z3[i1 + 1]));
        }
    }

    /** Periodic x and y ghosts of the interior planes of the grid at {@code off} (the local part of NPB's comm3). */
    static void comm3xy(DoubleArray u, int off, int n1, int n2, int n3) {
        final MemorySegment um = u.segment();
        final int p = n1 * n2;
        for (int i3 = 1; i3 < n3 - 1; i3++) {
            final int base = off + i3 * p;
            for (int i2 = 1; i2 < n2 - 1; i2++) {
                final long row = B * (base + i2 * n1);
                store(u, um, row, load(u, um, row + B * (n1 - 2)));
                store(u, um, row + B * (n1 - 1), load(u, um, row + B));
            }
            copy(u, base + (n2 - 2) * n1, base, n1);
            copy(u, base + n1, base + (n2 - 1) * n1, n1);
        }
    }

    /** Periodic z ghost planes of the grid at {@code off} when it holds the whole period in z. */
    static void comm3zLocal(DoubleArray u, int off, int n1, int n2, int n3) {
        final int p = n1 * n2;
        copy(u, off + (n3 - 2) * p, off, p);
        copy(u, off + p, off + (n3 - 1) * p, p);
    }

    /** NPB's comm3 for a grid that holds the whole level. */
    static void comm3(DoubleArray u, int off, int n1, int n2, int n3) {
        comm3xy(u, off, n1, n2, n3);
        comm3zLocal(u, off, n1, n2, n3);
    }

    /** Copies {@code n} elements within {@code u} between element ranges that do not overlap. */
    private static void copy(DoubleArray u, int from, int to, int n) {
        final MemorySegment um = u.segment();
        final long src = B * from;
        final long dst = B * to;
        for (int i = 0; i < n; i++) {
            store(u, um, dst + B * i, load(u, um, src + B * i));
        }
    }

    /**
     * Sum of squares and largest magnitude over the interior of the grid at {@code off}, in mg.f's loop order (the
     * local part of norm2u3).
     *
     * @param out receives {@code {sum of squares, max |r|}}
     */
    static void norm2u3Local(DoubleArray r, int off, int n1, int n2, int n3, double[] out) {
        final MemorySegment rm = r.segment();
        double s = 0.0;
        double rnmu = 0.0;
        final int p = n1 * n2;
        for (int i3 = 1; i3 < n3 - 1; i3++) {
            for (int i2 = 1; i2 < n2 - 1; i2++) {
                final long row = B * (off + i3 * p + i2 * n1);
                for (int i1 = 1; i1 < n1 - 1; i1++) {
                    final double x = load(r, rm, row + B * i1);
                    s = s + x * x;
                    rnmu = Math.max(rnmu, Math.abs(x));
                }
            }
        }
        out[0] = s;
        out[1] = rnmu;
    }
}
