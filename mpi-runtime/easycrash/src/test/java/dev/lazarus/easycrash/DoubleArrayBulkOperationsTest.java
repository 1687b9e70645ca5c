package dev.lazarus.easycrash;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bulk operations {@code addScaled}, {@code setScaled}, {@code scaleAndAdd} and {@code scaleComplex} give the
 * element loop's results to the bit on both implementations, over ranges that start and end off a vector boundary (so
 * both the lane-wise loop and the element tail run), and refuse ranges outside either object. The test JVMs resolve
 * the Vector API, as rank JVMs do, so the persistent heap's objects take the lane-wise path here once
 * {@link BulkLanePolicy} lets them ({@code lanes: true}) and the element loop before ({@code lanes: false}).
 */
class DoubleArrayBulkOperationsTest {
    /** Not a multiple of any vector length, and long enough for several vectors of 8 lanes. */
    private static final int LENGTH = 203;
    private static final int FROM = 5;
    private static final int TO = 198;

    @TempDir
    Path nvm;

    @AfterEach
    void warmUpAgain() {
        BulkLanePolicy.reset(false);
    }

    @Test
    void theTestJvmTakesTheLaneWisePath() {
        assertTrue(VectorModule.PRESENT, "tests run with --add-modules=jdk.incubator.vector (lazarus.jvm.flags)");
    }

    @ParameterizedTest(name = "lanes: {0}")
    @ValueSource(booleans = {false, true})
    void addScaledIsTheElementLoopOnBothImplementations(boolean lanes) throws Exception {
        BulkLanePolicy.reset(lanes);
        double[] y = values(1);
        double[] x = values(2);
        double[] expected = y.clone();
        for (int j = FROM; j < TO; j++) {
            expected[j] = expected[j] + -0.37 * x[j];
        }
        try (PersistentHeap heap = open()) {
            for (DoubleArray[] pair : pairs(heap, y, x)) {
                pair[0].addScaled(-0.37, pair[1], FROM, TO);
                assertArrayEquals(expected, pair[0].toArray(), 0.0, pair[0].persistent() ? "heap" : "plain");
            }
        }
    }

    @ParameterizedTest(name = "lanes: {0}")
    @ValueSource(booleans = {false, true})
    void setScaledIsTheElementLoopOnBothImplementations(boolean lanes) throws Exception {
        BulkLanePolicy.reset(lanes);
        double[] y = values(5);
        double[] x = values(6);
        x[FROM + 3] = -0.0;
        double[] expected = y.clone();
        for (int j = FROM; j < TO; j++) {
            expected[j] = 1.7 * x[j];
        }
        try (PersistentHeap heap = open()) {
            for (DoubleArray[] pair : pairs(heap, y, x)) {
                pair[0].setScaled(1.7, pair[1], FROM, TO);
                assertArrayEquals(expected, pair[0].toArray(), 0.0, pair[0].persistent() ? "heap" : "plain");
                assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(pair[0].get(FROM + 3)),
                        "the sign of a zero product is kept");
            }
        }
    }

    @ParameterizedTest(name = "lanes: {0}")
    @ValueSource(booleans = {false, true})
    void scaleAndAddIsTheElementLoopOnBothImplementations(boolean lanes) throws Exception {
        BulkLanePolicy.reset(lanes);
        double[] y = values(3);
        double[] x = values(4);
        double[] expected = y.clone();
        for (int j = FROM; j < TO; j++) {
            expected[j] = x[j] + 0.91 * expected[j];
        }
        try (PersistentHeap heap = open()) {
            for (DoubleArray[] pair : pairs(heap, y, x)) {
                pair[0].scaleAndAdd(0.91, pair[1], FROM, TO);
                assertArrayEquals(expected, pair[0].toArray(), 0.0, pair[0].persistent() ? "heap" : "plain");
            }
        }
    }

    @ParameterizedTest(name = "lanes: {0}")
    @ValueSource(booleans = {false, true})
    void scaleComplexIsTheElementLoopOnBothImplementations(boolean lanes) throws Exception {
        BulkLanePolicy.reset(lanes);
        int pairs = LENGTH / 2 + 1;   // 102 complex numbers: 12 vectors of 8 factors and a tail of 6
        double[] y = values(5, 2 * pairs);
        double[] factors = values(6, pairs);
        double[] expected = complexProducts(y, factors);
        try (PersistentHeap heap = open()) {
            DoubleArray mapped = heap.doubles("y", 2 * pairs, ObjectRole.CANDIDATE);
            DoubleArray mappedCopy = heap.doubles("copy", 2 * pairs, ObjectRole.CANDIDATE);
            DoubleArray mappedFactors = heap.doubles("factors", pairs, ObjectRole.CANDIDATE);
            mapped.copyFrom(y);
            mappedFactors.copyFrom(factors);
            mapped.scaleComplex(mappedFactors, mappedCopy);
            assertArrayEquals(expected, mapped.toArray(), 0.0, "heap");
            assertArrayEquals(expected, mappedCopy.toArray(), 0.0, "heap copy");

            DoubleArray plain = DoubleArray.plain("y", 2 * pairs, ObjectRole.CANDIDATE);
            DoubleArray plainCopy = DoubleArray.plain("copy", 2 * pairs, ObjectRole.CANDIDATE);
            DoubleArray plainFactors = DoubleArray.plain("factors", pairs, ObjectRole.CANDIDATE);
            plain.copyFrom(y);
            plainFactors.copyFrom(factors);
            plain.scaleComplex(plainFactors, plainCopy);
            assertArrayEquals(expected, plain.toArray(), 0.0, "plain");
            assertArrayEquals(expected, plainCopy.toArray(), 0.0, "plain copy");
        }
    }

    /** A heap object may take a plain one as its argument (and the reverse): the results are the same. */
    @ParameterizedTest(name = "lanes: {0}")
    @ValueSource(booleans = {false, true})
    void heapAndPlainObjectsMix(boolean lanes) throws Exception {
        BulkLanePolicy.reset(lanes);
        double[] y = values(7);
        double[] x = values(8);
        double[] expected = y.clone();
        for (int j = 0; j < LENGTH; j++) {
            expected[j] = x[j] + 1.5 * (expected[j] + 0.25 * x[j]);
        }
        try (PersistentHeap heap = open()) {
            DoubleArray[] pairs = pairs(heap, y, x)[0];
            DoubleArray plainX = DoubleArray.plain("x", LENGTH, ObjectRole.CANDIDATE);
            plainX.copyFrom(x);
            pairs[0].addScaled(0.25, plainX, 0, LENGTH);
            pairs[0].scaleAndAdd(1.5, plainX, 0, LENGTH);
            assertArrayEquals(expected, pairs[0].toArray(), 0.0, "heap with a plain argument");
            DoubleArray plainY = DoubleArray.plain("y", LENGTH, ObjectRole.CANDIDATE);
            plainY.copyFrom(y);
            plainY.addScaled(0.25, pairs[1], 0, LENGTH);
            plainY.scaleAndAdd(1.5, pairs[1], 0, LENGTH);
            assertArrayEquals(expected, plainY.toArray(), 0.0, "plain with a heap argument");

            double[] scaled = x.clone();
            for (int j = FROM; j < TO; j++) {
                scaled[j] = -2.5 * x[j];
            }
            DoubleArray heapY = heap.doubles("scaled", LENGTH, ObjectRole.CANDIDATE);
            heapY.copyFrom(x);
            heapY.setScaled(-2.5, plainX, FROM, TO);
            assertArrayEquals(scaled, heapY.toArray(), 0.0, "setScaled on the heap with a plain argument");
        }
    }

    /** A grid and its copy in the heap with the factors in a plain array (read-only ones), and the other mix. */
    @ParameterizedTest(name = "lanes: {0}")
    @ValueSource(booleans = {false, true})
    void scaleComplexTakesPlainFactorsOrAPlainCopy(boolean lanes) throws Exception {
        BulkLanePolicy.reset(lanes);
        int pairs = LENGTH / 2 + 1;
        double[] y = values(9, 2 * pairs);
        double[] factors = values(10, pairs);
        double[] expected = complexProducts(y, factors);
        try (PersistentHeap heap = open()) {
            DoubleArray plainFactors = DoubleArray.plain("factors", pairs, ObjectRole.READ_ONLY);
            plainFactors.copyFrom(factors);
            DoubleArray grid = heap.doubles("y", 2 * pairs, ObjectRole.CANDIDATE);
            DoubleArray copy = heap.doubles("copy", 2 * pairs, ObjectRole.CANDIDATE);
            grid.copyFrom(y);
            grid.scaleComplex(plainFactors, copy);
            assertArrayEquals(expected, grid.toArray(), 0.0, "heap grid, plain factors");
            assertArrayEquals(expected, copy.toArray(), 0.0, "heap copy");

            DoubleArray heapFactors = heap.doubles("factors", pairs, ObjectRole.CANDIDATE);
            heapFactors.copyFrom(factors);
            DoubleArray plainCopy = DoubleArray.plain("copy", 2 * pairs, ObjectRole.CANDIDATE);
            grid.copyFrom(y);
            grid.scaleComplex(heapFactors, plainCopy);
            assertArrayEquals(expected, grid.toArray(), 0.0, "heap grid, plain copy");
            assertArrayEquals(expected, plainCopy.toArray(), 0.0, "plain copy");
        }
    }

    @Test
    void rangesOutsideEitherObjectAreRefusedBeforeAnythingIsWritten() throws Exception {
        try (PersistentHeap heap = open()) {
            DoubleArray y = heap.doubles("y", LENGTH, ObjectRole.CANDIDATE);
            DoubleArray shorter = heap.doubles("x", LENGTH - 10, ObjectRole.CANDIDATE);
            y.fill(1.0);
            shorter.fill(2.0);
            assertThrows(IndexOutOfBoundsException.class, () -> y.addScaled(1.0, shorter, 0, LENGTH));
            assertThrows(IndexOutOfBoundsException.class, () -> y.scaleAndAdd(1.0, shorter, 0, LENGTH));
            assertThrows(IndexOutOfBoundsException.class, () -> y.setScaled(1.0, shorter, 0, LENGTH));
            assertThrows(IndexOutOfBoundsException.class, () -> y.addScaled(1.0, y, -1, 4));
            assertThrows(IndexOutOfBoundsException.class, () -> y.addScaled(1.0, y, 4, 3));
            assertThrows(IndexOutOfBoundsException.class, () -> y.scaleComplex(y, shorter));
            assertEquals(1.0, y.get(0));
            assertEquals(1.0, y.get(LENGTH - 1));
        }
    }

    /** The object under test and its argument: on the heap, then plain, both filled with the given values. */
    private static DoubleArray[][] pairs(PersistentHeap heap, double[] y, double[] x) {
        DoubleArray mappedY = heap.doubles("y", LENGTH, ObjectRole.CANDIDATE);
        DoubleArray mappedX = heap.doubles("x", LENGTH, ObjectRole.CANDIDATE);
        DoubleArray plainY = DoubleArray.plain("y", LENGTH, ObjectRole.CANDIDATE);
        DoubleArray plainX = DoubleArray.plain("x", LENGTH, ObjectRole.CANDIDATE);
        for (DoubleArray a : new DoubleArray[] {mappedY, plainY}) {
            a.copyFrom(y);
        }
        for (DoubleArray a : new DoubleArray[] {mappedX, plainX}) {
            a.copyFrom(x);
        }
        return new DoubleArray[][] {{mappedY, mappedX}, {plainY, plainX}};
    }

    /** The element loop's {@code y[2i] * f[i], y[2i+1] * f[i]}. */
    private static double[] complexProducts(double[] y, double[] factors) {
        double[] products = y.clone();
        for (int i = 0; i < factors.length; i++) {
            products[2 * i] = products[2 * i] * factors[i];
            products[2 * i + 1] = products[2 * i + 1] * factors[i];
        }
        return products;
    }

    private static double[] values(long seed) {
        return values(seed, LENGTH);
    }

    private static double[] values(long seed, int length) {
        return new SplittableRandom(seed).doubles(length, -10, 10).toArray();
    }

    private PersistentHeap open() throws Exception {
        return PersistentHeap.open(new PersistentHeap.Config(nvm, "bulk", 0, 1, 1 << 20, "test", null));
    }
}
