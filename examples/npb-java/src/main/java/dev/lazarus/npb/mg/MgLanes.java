package dev.lazarus.npb.mg;

import dev.lazarus.easycrash.DoubleArray;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * MG's smoother and residual ({@link MgOps#psinv}, {@link MgOps#resid}) with their row loops written lane-wise with
 * the Vector API over the objects' segments.
 *
 * <p>Why: C2 on JDK 25 does not vectorize these rows at all, on the persistent heap or on plain arrays (the loops ran
 * as fast with {@code -XX:-UseSuperWord}): each row stores into one array while it reads others at neighbouring
 * offsets, and C2 cannot rule out that they overlap. Each lane performs the element loop's operations in the same
 * order, so the results are bit-identical; the element loop does each row's last partial vector. Only for objects
 * whose {@link DoubleArray#lanewiseAccess()} holds, checked by {@link MgOps}, which otherwise runs its element loops
 * (and so never loads this class without the Vector API).
 */
final class MgLanes {
    private static final VectorSpecies<Double> SPECIES = DoubleVector.SPECIES_PREFERRED;
    private static final int LANES = SPECIES.length();
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    private MgLanes() {
    }

    /** {@link MgOps#resid}, lane-wise. */
    static void resid(DoubleArray u, int uo, DoubleArray v, int vo, DoubleArray r, int ro, int n1, int n2, int n3,
                      double[] a, double[] u1, double[] u2) {
        final double a0 = a[0];
        final double a2 = a[2];
        final double a3 = a[3];
        final MemorySegment us = u.segment();
        final MemorySegment vs = v.segment();
        final MemorySegment rs = r.segment();
        final int p = n1 * n2;
        for (int i3 = 1; i3 < n3 - 1; i3++) {
            for (int i2 = 1; i2 < n2 - 1; i2++) {
                final long center = (long) i3 * p + (long) i2 * n1;
                final long c = uo + center;
                neighbourSums(u, us, c, n1, p, u1, u2);
                final long cv = vo + center;
                final long cr = ro + center;
                int i1 = 1;
                for (; i1 + LANES <= n1 - 1; i1 += LANES) {
                    DoubleVector.fromMemorySegment(SPECIES, vs, (cv + i1) << 3, ORDER)
                            .sub(DoubleVector.fromMemorySegment(SPECIES, us, (c + i1) << 3, ORDER).mul(a0))
                            .sub(DoubleVector.fromArray(SPECIES, u2, i1)
                                    .add(DoubleVector.fromArray(SPECIES, u1, i1 - 1))
                                    .add(DoubleVector.fromArray(SPECIES, u1, i1 + 1)).mul(a2))
                            .sub(DoubleVector.fromArray(SPECIES, u2, i1 - 1)
                                    .add(DoubleVector.fromArray(SPECIES, u2, i1 + 1)).mul(a3))
                            .intoMemorySegment(rs, (cr + i1) << 3, ORDER);
                }
                for (; i1 < n1 - 1; i1++) {
                    r.set(cr, i1, v.get(cv, i1) - a0 * u.get(c, i1)
                            - a2 * (u2[i1] + u1[i1 - 1] + u1[i1 + 1])
                            - a3 * (u2[i1 - 1] + u2[i1 + 1]));
                }
            }
        }
    }

    /** {@link MgOps#psinv}, lane-wise. */
    static void psinv(DoubleArray r, int ro, DoubleArray u, int uo, int n1, int n2, int n3, double[] cc,
                      double[] r1, double[] r2) {
        final double c0 = cc[0];
        final double c1 = cc[1];
        final double c2 = cc[2];
        final MemorySegment rs = r.segment();
        final MemorySegment us = u.segment();
        final int p = n1 * n2;
        for (int i3 = 1; i3 < n3 - 1; i3++) {
            for (int i2 = 1; i2 < n2 - 1; i2++) {
                final long center = (long) i3 * p + (long) i2 * n1;
                final long c = ro + center;
                neighbourSums(r, rs, c, n1, p, r1, r2);
                final long cu = uo + center;
                int i1 = 1;
                for (; i1 + LANES <= n1 - 1; i1 += LANES) {
                    DoubleVector.fromMemorySegment(SPECIES, us, (cu + i1) << 3, ORDER)
                            .add(DoubleVector.fromMemorySegment(SPECIES, rs, (c + i1) << 3, ORDER).mul(c0))
                            .add(DoubleVector.fromMemorySegment(SPECIES, rs, (c - 1 + i1) << 3, ORDER)
                                    .add(DoubleVector.fromMemorySegment(SPECIES, rs, (c + 1 + i1) << 3, ORDER))
                                    .add(DoubleVector.fromArray(SPECIES, r1, i1)).mul(c1))
                            .add(DoubleVector.fromArray(SPECIES, r2, i1)
                                    .add(DoubleVector.fromArray(SPECIES, r1, i1 - 1))
                                    .add(DoubleVector.fromArray(SPECIES, r1, i1 + 1)).mul(c2))
                            .intoMemorySegment(us, (cu + i1) << 3, ORDER);
                }
                for (; i1 < n1 - 1; i1++) {
                    u.set(cu, i1, u.get(cu, i1) + c0 * r.get(c, i1)
                            + c1 * (r.get(c - 1, i1) + r.get(c + 1, i1) + r1[i1])
                            + c2 * (r2[i1] + r1[i1 - 1] + r1[i1 + 1]));
                }
            }
        }
    }

    /**
     * The row of sums of the four edge neighbours ({@code s1}: south, north, below, above) and of the four corner
     * neighbours ({@code s2}) of the {@code n1} points from element {@code c} of {@code x}, {@code p} elements per
     * plane, in the element loop's order.
     */
    private static void neighbourSums(DoubleArray x, MemorySegment xs, long c, int n1, int p, double[] s1,
                                      double[] s2) {
        final long s = c - n1;
        final long n = c + n1;
        final long b = c - p;
        final long t = c + p;
        final long bs = b - n1;
        final long bn = b + n1;
        final long ts = t - n1;
        final long tn = t + n1;
        int i1 = 0;
        for (; i1 + LANES <= n1; i1 += LANES) {
            lane(xs, s, i1).add(lane(xs, n, i1)).add(lane(xs, b, i1)).add(lane(xs, t, i1)).intoArray(s1, i1);
            lane(xs, bs, i1).add(lane(xs, bn, i1)).add(lane(xs, ts, i1)).add(lane(xs, tn, i1)).intoArray(s2, i1);
        }
        for (; i1 < n1; i1++) {
            s1[i1] = x.get(s, i1) + x.get(n, i1) + x.get(b, i1) + x.get(t, i1);
            s2[i1] = x.get(bs, i1) + x.get(bn, i1) + x.get(ts, i1) + x.get(tn, i1);
        }
    }

    /** The vector of elements {@code base + i .. base + i + LANES - 1} of the segment. */
    private static DoubleVector lane(MemorySegment xs, long base, int i) {
        return DoubleVector.fromMemorySegment(SPECIES, xs, (base + i) << 3, ORDER);
    }
}
