package dev.lazarus.npb.mg;

import java.util.Arrays;

/**
 * The serial MG grid operators of NPB's mg.f, on local arrays of extent {@code n1 x n2 x n3} (x fastest, one ghost
 * layer on each side, all indices 0-based). They are written to perform the same floating-point operations in the
 * same order as mg.f, so that the result does not depend on the decomposition. The row buffers are scratch of at
 * least {@code n1} doubles, passed in so that nothing is allocated in the timed loop.
 */
final class MgOps {

    private MgOps() {
    }

    /** Sets every element to zero (NPB's zero3). */
    static void zero3(double[] z) {
        Arrays.fill(z, 0.0);
    }

    /**
     * r = v - A u on the interior (NPB's resid without its comm3). {@code v} and {@code r} may be the same array,
     * since each point reads only its own v. Like mg.f it assumes {@code a(1) = 0} and drops that term.
     */
    static void resid(double[] u, double[] v, double[] r, int n1, int n2, int n3, double[] a,
                      double[] u1, double[] u2) {
        final double a0 = a[0];
        final double a2 = a[2];
        final double a3 = a[3];
        final int p = n1 * n2;
        for (int i3 = 1; i3 < n3 - 1; i3++) {
            for (int i2 = 1; i2 < n2 - 1; i2++) {
                final int c = i3 * p + i2 * n1;
                final int s = c - n1;
                final int n = c + n1;
                final int b = c - p;
                final int t = c + p;
                for (int i1 = 0; i1 < n1; i1++) {
                    u1[i1] = u[s + i1] + u[n + i1] + u[b + i1] + u[t + i1];
                    u2[i1] = u[b - n1 + i1] + u[b + n1 + i1] + u[t - n1 + i1] + u[t + n1 + i1];
                }
                for (int i1 = 1; i1 < n1 - 1; i1++) {
                    r[c + i1] = v[c + i1] - a0 * u[c + i1]
                            - a2 * (u2[i1] + u1[i1 - 1] + u1[i1 + 1])
                            - a3 * (u2[i1 - 1] + u2[i1 + 1]);
                }
            }
        }
    }

    /**
     * u = u + C r on the interior, the smoother (NPB's psinv without its comm3). Like mg.f it assumes
     * {@code c(3) = 0} and drops that term.
     */
    static void psinv(double[] r, double[] u, int n1, int n2, int n3, double[] cc, double[] r1, double[] r2) {
        final double c0 = cc[0];
        final double c1 = cc[1];
        final double c2 = cc[2];
        final int p = n1 * n2;
        for (int i3 = 1; i3 < n3 - 1; i3++) {
            for (int i2 = 1; i2 < n2 - 1; i2++) {
                final int c = i3 * p + i2 * n1;
                final int s = c - n1;
                final int n = c + n1;
                final int b = c - p;
                final int t = c + p;
                for (int i1 = 0; i1 < n1; i1++) {
                    r1[i1] = r[s + i1] + r[n + i1] + r[b + i1] + r[t + i1];
                    r2[i1] = r[b - n1 + i1] + r[b + n1 + i1] + r[t - n1 + i1] + r[t + n1 + i1];
                }
                for (int i1 = 1; i1 < n1 - 1; i1++) {
                    u[c + i1] = u[c + i1] + c0 * r[c + i1]
                            + c1 * (r[c + i1 - 1] + r[c + i1 + 1] + r1[i1])
                            + c2 * (r2[i1] + r1[i1 - 1] + r1[i1 + 1]);
                }
            }
        }
    }

    /**
     * Restricts fine {@code r} ({@code m1k x m2k x m3k}) to the interior of coarse {@code s} ({@code m1j x m2j x
     * m3j}) with the trilinear finite-element projection (NPB's rprj3 without its comm3). Coarse point {@code j}
     * sits on fine point {@code 2j}; every fine extent must be {@code 2 * coarse extent - 2}. {@code x1} and
     * {@code y1} need {@code m1k} doubles.
     */
    static void rprj3(double[] r, int m1k, int m2k, int m3k, double[] s, int m1j, int m2j, int m3j,
                      double[] x1, double[] y1) {
        final int pk = m1k * m2k;
        final int pj = m1j * m2j;
        for (int j3 = 1; j3 < m3j - 1; j3++) {
            for (int j2 = 1; j2 < m2j - 1; j2++) {
                final int c = 2 * j3 * pk + 2 * j2 * m1k;
                final int so = c - m1k;
                final int no = c + m1k;
                final int b = c - pk;
                final int t = c + pk;
                for (int j1 = 1; j1 < m1j; j1++) {
                    final int i = 2 * j1 - 1;
                    x1[i] = r[so + i] + r[no + i] + r[b + i] + r[t + i];
                    y1[i] = r[b - m1k + i] + r[t - m1k + i] + r[b + m1k + i] + r[t + m1k + i];
                }
                final int out = j3 * pj + j2 * m1j;
                for (int j1 = 1; j1 < m1j - 1; j1++) {
                    final int i1 = 2 * j1;
                    final double y2 = r[b - m1k + i1] + r[t - m1k + i1] + r[b + m1k + i1] + r[t + m1k + i1];
                    final double x2 = r[so + i1] + r[no + i1] + r[b + i1] + r[t + i1];
                    s[out + j1] = 0.5 * r[c + i1]
                            + 0.25 * (r[c + i1 - 1] + r[c + i1 + 1] + x2)
                            + 0.125 * (x1[i1 - 1] + x1[i1 + 1] + y2)
                            + 0.0625 * (y1[i1 - 1] + y1[i1 + 1]);
                }
            }
        }
    }

    /**
     * Adds the trilinear interpolation of coarse {@code z} ({@code mm1 x mm2 x mm3}) to fine {@code u}
     * ({@code n1 x n2 x n3}), ghosts included (NPB's interp). In z the arrays may be slabs: fine local plane
     * {@code L} is serial plane {@code L + fineOff}, coarse local plane {@code L} is serial plane
     * {@code L + coarseOff}, and serial coarse plane {@code C} feeds fine planes {@code 2C} and {@code 2C + 1}. Only
     * the fine planes inside {@code u} are written. {@code z1..z3} need {@code mm1} doubles.
     */
    static void interp(double[] z, int mm1, int mm2, int coarseOff, double[] u, int n1, int n2, int n3,
                       int fineOff, double[] z1, double[] z2, double[] z3) {
        final int pc = mm1 * mm2;
        final int pf = n1 * n2;
        final int cEnd = (fineOff + n3 - 1) / 2;
        for (int cs = fineOff / 2; cs <= cEnd; cs++) {
            final int even = 2 * cs - fineOff;
            final boolean doEven = even >= 0;
            final boolean doOdd = even + 1 < n3;
            for (int i2 = 0; i2 < mm2 - 1; i2++) {
                final int zc = (cs - coarseOff) * pc + i2 * mm1;
                final int zn = zc + mm1;
                final int zt = zc + pc;
                for (int i1 = 0; i1 < mm1; i1++) {
                    z1[i1] = z[zn + i1] + z[zc + i1];
                    z2[i1] = z[zt + i1] + z[zc + i1];
                    z3[i1] = z[zt + mm1 + i1] + z[zt + i1] + z1[i1];
                }
                if (doEven) {
                    interpEvenPlane(z, zc, z1, mm1, u, even * pf + 2 * i2 * n1, n1);
                }
                if (doOdd) {
                    interpOddPlane(z2, z3, mm1, u, (even + 1) * pf + 2 * i2 * n1, n1);
                }
            }
        }
    }

    /** The two fine rows of an even fine plane, which lies on the coarse plane. */
    private static void interpEvenPlane(double[] z, int zc, double[] z1, int mm1, double[] u, int ue, int n1) {
        for (int i1 = 0; i1 < mm1 - 1; i1++) {
            u[ue + 2 * i1] = u[ue + 2 * i1] + z[zc + i1];
            u[ue + 2 * i1 + 1] = u[ue + 2 * i1 + 1] + 0.5 * (z[zc + i1 + 1] + z[zc + i1]);
        }
        final int uo = ue + n1;
        for (int i1 = 0; i1 < mm1 - 1; i1++) {
            u[uo + 2 * i1] = u[uo + 2 * i1] + 0.5 * z1[i1];
            u[uo + 2 * i1 + 1] = u[uo + 2 * i1 + 1] + 0.25 * (z1[i1] + z1[i1 + 1]);
        }
    }

    /** The two fine rows of an odd fine plane, halfway between two coarse planes. */
    private static void interpOddPlane(double[] z2, double[] z3, int mm1, double[] u, int ue, int n1) {
        for (int i1 = 0; i1 < mm1 - 1; i1++) {
            u[ue + 2 * i1] = u[ue + 2 * i1] + 0.5 * z2[i1];
            u[ue + 2 * i1 + 1] = u[ue + 2 * i1 + 1] + 0.25 * (z2[i1] + z2[i1 + 1]);
        }
        final int uo = ue + n1;
        for (int i1 = 0; i1 < mm1 - 1; i1++) {
            u[uo + 2 * i1] = u[uo + 2 * i1] + 0.25 * z3[i1];
            u[uo + 2 * i1 + 1] = u[uo + 2 * i1 + 1] + 0.125 * (z3[i1] + z3[i1 + 1]);
        }
    }

    /** Periodic x and y ghosts of the interior planes (the local part of NPB's comm3). */
    static void comm3xy(double[] u, int n1, int n2, int n3) {
        final int p = n1 * n2;
        for (int i3 = 1; i3 < n3 - 1; i3++) {
            final int base = i3 * p;
            for (int i2 = 1; i2 < n2 - 1; i2++) {
                final int row = base + i2 * n1;
                u[row] = u[row + n1 - 2];
                u[row + n1 - 1] = u[row + 1];
            }
            System.arraycopy(u, base + (n2 - 2) * n1, u, base, n1);
            System.arraycopy(u, base + n1, u, base + (n2 - 1) * n1, n1);
        }
    }

    /** Periodic z ghost planes when this array holds the whole period in z. */
    static void comm3zLocal(double[] u, int n1, int n2, int n3) {
        final int p = n1 * n2;
        System.arraycopy(u, (n3 - 2) * p, u, 0, p);
        System.arraycopy(u, p, u, (n3 - 1) * p, p);
    }

    /** NPB's comm3 for an array that holds the whole grid. */
    static void comm3(double[] u, int n1, int n2, int n3) {
        comm3xy(u, n1, n2, n3);
        comm3zLocal(u, n1, n2, n3);
    }

    /**
     * Sum of squares and largest magnitude over the interior, in mg.f's loop order (the local part of norm2u3).
     *
     * @param out receives {@code {sum of squares, max |r|}}
     */
    static void norm2u3Local(double[] r, int n1, int n2, int n3, double[] out) {
        double s = 0.0;
        double rnmu = 0.0;
        final int p = n1 * n2;
        for (int i3 = 1; i3 < n3 - 1; i3++) {
            for (int i2 = 1; i2 < n2 - 1; i2++) {
                final int row = i3 * p + i2 * n1;
                for (int i1 = 1; i1 < n1 - 1; i1++) {
                    final double x = r[row + i1];
                    s = s + x * x;
                    rnmu = Math.max(rnmu, Math.abs(x));
                }
            }
        }
        out[0] = s;
        out[1] = rnmu;
    }
}
