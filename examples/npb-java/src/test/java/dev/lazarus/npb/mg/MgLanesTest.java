package dev.lazarus.npb.mg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.easycrash.DoubleArray;
import dev.lazarus.easycrash.ObjectRole;
import dev.lazarus.npb.testing.TestHeap;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MG's lane-wise resid and psinv ({@link MgLanes}, which the test JVM takes, as rank JVMs do) give the element loop's
 * results to the bit, on the persistent heap, on plain arrays and on every mix of the two (a rank keeps read-only
 * objects in plain arrays), on a grid whose rows are not a whole number of
 * vectors (so the element tails run too) and at an offset inside the object.
 */
class MgLanesTest {
    private static final int N1 = 21;
    private static final int N2 = 7;
    private static final int N3 = 6;
    private static final int OFFSET = 13;
    private static final int SIZE = OFFSET + N1 * N2 * N3;

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

    @Test
    void theTestJvmTakesTheLaneWisePath() {
        assertTrue(heap.zeros(1).lanewiseAccess(), "tests run with --add-modules=jdk.incubator.vector");
        assertTrue(DoubleArray.plain("p", 1, ObjectRole.CANDIDATE).lanewiseAccess());
    }

    @Test
    void residIsTheElementLoopToTheBit() {
        double[] u = random(1);
        double[] v = random(2);
        double[] a = {-8.0 / 3.0, 0.0, 1.0 / 6.0, 1.0 / 12.0};
        double[] expected = random(3);
        residByElement(u, v, expected, a);
        for (int kinds = 0; kinds < 8; kinds++) { // each of u, v and r in the heap or plain
            DoubleArray r = object(random(3), (kinds & 4) != 0);
            MgOps.resid(object(u, (kinds & 1) != 0), OFFSET, object(v, (kinds & 2) != 0), OFFSET, r, OFFSET, N1, N2,
                    N3, a, new double[N1], new double[N1]);
            assertArrayEquals(expected, r.toArray(), "u, v, r in the heap: " + kinds(kinds, 3));
        }
    }

    @Test
    void psinvIsTheElementLoopToTheBit() {
        double[] r = random(4);
        double[] c = {-3.0 / 8.0, 1.0 / 32.0, -1.0 / 64.0, 0.0};
        double[] expected = random(5);
        psinvByElement(r, expected, c);
        for (int kinds = 0; kinds < 4; kinds++) { // each of r and u in the heap or plain
            DoubleArray u = object(random(5), (kinds & 2) != 0);
            MgOps.psinv(object(r, (kinds & 1) != 0), OFFSET, u, OFFSET, N1, N2, N3, c, new double[N1],
                    new double[N1]);
            assertArrayEquals(expected, u.toArray(), "r, u in the heap: " + kinds(kinds, 2));
        }
    }

    /** The first {@code count} bits of {@code kinds}, lowest first, as "true, false, ...". */
    private static String kinds(int kinds, int count) {
        StringBuilder text = new StringBuilder();
        for (int bit = 0; bit < count; bit++) {
            text.append(bit == 0 ? "" : ", ").append((kinds >> bit & 1) != 0);
        }
        return text.toString();
    }

    private DoubleArray object(double[] values, boolean persistent) {
        if (persistent) {
            return heap.of(values);
        }
        DoubleArray plain = DoubleArray.plain("grid", values.length, ObjectRole.CANDIDATE);
        plain.copyFrom(values);
        return plain;
    }

    private static double[] random(long seed) {
        return new Random(seed).doubles(SIZE, -1, 1).toArray();
    }

    /** mg.f's resid on interior points, element by element in its order of operations. */
    private static void residByElement(double[] u, double[] v, double[] r, double[] a) {
        for (int i3 = 1; i3 < N3 - 1; i3++) {
            for (int i2 = 1; i2 < N2 - 1; i2++) {
                double[] u1 = new double[N1];
                double[] u2 = new double[N1];
                for (int i1 = 0; i1 < N1; i1++) {
                    u1[i1] = u[at(i1, i2 - 1, i3)] + u[at(i1, i2 + 1, i3)] + u[at(i1, i2, i3 - 1)]
                            + u[at(i1, i2, i3 + 1)];
                    u2[i1] = u[at(i1, i2 - 1, i3 - 1)] + u[at(i1, i2 + 1, i3 - 1)] + u[at(i1, i2 - 1, i3 + 1)]
                            + u[at(i1, i2 + 1, i3 + 1)];
                }
                for (int i1 = 1; i1 < N1 - 1; i1++) {
                    r[at(i1, i2, i3)] = v[at(i1, i2, i3)] - a[0] * u[at(i1, i2, i3)]
                            - a[2] * (u2[i1] + u1[i1 - 1] + u1[i1 + 1]) - a[3] * (u2[i1 - 1] + u2[i1 + 1]);
                }
            }
        }
    }

    /** mg.f's psinv on interior points, element by element in its order of operations. */
    private static void psinvByElement(double[] r, double[] u, double[] c) {
        for (int i3 = 1; i3 < N3 - 1; i3++) {
            for (int i2 = 1; i2 < N2 - 1; i2++) {
                double[] r1 = new double[N1];
                double[] r2 = new double[N1];
                for (int i1 = 0; i1 < N1; i1++) {
                    r1[i1] = r[at(i1, i2 - 1, i3)] + r[at(i1, i2 + 1, i3)] + r[at(i1, i2, i3 - 1)]
                            + r[at(i1, i2, i3 + 1)];
                    r2[i1] = r[at(i1, i2 - 1, i3 - 1)] + r[at(i1, i2 + 1, i3 - 1)] + r[at(i1, i2 - 1, i3 + 1)]
                            + r[at(i1, i2 + 1, i3 + 1)];
                }
                for (int i1 = 1; i1 < N1 - 1; i1++) {
                    u[at(i1, i2, i3)] = u[at(i1, i2, i3)] + c[0] * r[at(i1, i2, i3)]
                            + c[1] * (r[at(i1 - 1, i2, i3)] + r[at(i1 + 1, i2, i3)] + r1[i1])
                            + c[2] * (r2[i1] + r1[i1 - 1] + r1[i1 + 1]);
                }
            }
        }
    }

    private static int at(int i1, int i2, int i3) {
        return OFFSET + (i3 * N2 + i2) * N1 + i1;
    }
}
