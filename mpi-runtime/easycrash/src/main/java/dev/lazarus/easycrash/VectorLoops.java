package dev.lazarus.easycrash;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * The persistent heap's streaming loops, written with the Vector API ({@code jdk.incubator.vector}) over the objects'
 * segments.
 *
 * <p>Why: a loop that stores into one heap object and loads from another is not vectorized by C2 on JDK 25, because
 * it cannot prove that two native address ranges do not overlap (a runtime check for that arrives in JDK 26,
 * JDK-8324751), while the same loop over two {@code double[]} is (arrays never partially overlap). Written lane-wise
 * here, CG's {@code z += alpha p} runs as fast as its array loop; element by element it took 3.3 to 7 times as long.
 * Each lane performs the scalar loop's operations in the same order, with no fused multiply-add, so results are
 * bit-identical to the element loops. Each loop stops before the last partial vector and returns where it stopped:
 * the caller's element loop does the rest. Used only when the module is in the boot layer ({@link VectorModule}; the
 * rank JVMs add it); otherwise the callers loop element by element throughout.
 *
 * <p>The operand that is only loaded ({@code x}, {@code factors}) may be a plain object (a read-only one, which a rank
 * keeps in the Java heap): it comes as its array ({@code xArray}, else {@code null}) and its lanes are loaded from
 * the array, by a conditional written out in each loop. Loaded through its heap segment at a site that also sees
 * native segments, the loads ran the Vector API's Java fallback (MG with its r and v in plain arrays: 2.5 times as
 * long on 2 ranks); in a helper method of ours, once compiled on its own, they were "already compiled into a big
 * method", not inlined, and ran boxed.
 */
final class VectorLoops {
    private static final VectorSpecies<Double> SPECIES = DoubleVector.SPECIES_PREFERRED;
    /** Lane {@code k} takes factor lane {@code k / 2} (first half of the pairs), or {@code k / 2 + length / 2}. */
    private static final VectorShuffle<Double> LOW_FACTORS = VectorShuffle.fromOp(SPECIES, k -> k / 2);
    private static final VectorShuffle<Double> HIGH_FACTORS =
            VectorShuffle.fromOp(SPECIES, k -> k / 2 + SPECIES.length() / 2);
    /** Bytes per vector. */
    private static final long STEP = SPECIES.vectorByteSize();
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    private VectorLoops() {
    }

    /**
     * {@code y[j] = y[j] + alpha * x[j]} over the whole vectors from {@code from} towards {@code to}; the caller
     * checked the range and does the rest.
     *
     * @return the first index not done
     */
    static int addScaled(MemorySegment y, double alpha, MemorySegment x, double[] xArray, int from, int to) {
        final int tail = from + SPECIES.loopBound(to - from);
        final long end = (long) tail << 3;
        for (long at = (long) from << 3; at < end; at += STEP) {
            DoubleVector product = (xArray != null ? DoubleVector.fromArray(SPECIES, xArray, (int) (at >>> 3))
                    : DoubleVector.fromMemorySegment(SPECIES, x, at, ORDER)).mul(alpha);
            DoubleVector.fromMemorySegment(SPECIES, y, at, ORDER).add(product).intoMemorySegment(y, at, ORDER);
        }
        return tail;
    }

    /** {@code y[j] = alpha * x[j]} as {@link #addScaled} does its operation; returns the first index not done. */
    static int setScaled(MemorySegment y, double alpha, MemorySegment x, double[] xArray, int from, int to) {
        final int tail = from + SPECIES.loopBound(to - from);
        final long end = (long) tail << 3;
        for (long at = (long) from << 3; at < end; at += STEP) {
            DoubleVector product = (xArray != null ? DoubleVector.fromArray(SPECIES, xArray, (int) (at >>> 3))
                    : DoubleVector.fromMemorySegment(SPECIES, x, at, ORDER)).mul(alpha);
            product.intoMemorySegment(y, at, ORDER);
        }
        return tail;
    }

    /** {@code y[j] = x[j] + beta * y[j]} as {@link #addScaled} does its operation; returns the first index not done. */
    static int scaleAndAdd(MemorySegment y, double beta, MemorySegment x, double[] xArray, int from, int to) {
        final int tail = from + SPECIES.loopBound(to - from);
        final long end = (long) tail << 3;
        for (long at = (long) from << 3; at < end; at += STEP) {
            DoubleVector product = DoubleVector.fromMemorySegment(SPECIES, y, at, ORDER).mul(beta);
            DoubleVector sum = (xArray != null ? DoubleVector.fromArray(SPECIES, xArray, (int) (at >>> 3))
                    : DoubleVector.fromMemorySegment(SPECIES, x, at, ORDER)).add(product);
            sum.intoMemorySegment(y, at, ORDER);
        }
        return tail;
    }

    /**
     * {@code y[2i] *= f[i], y[2i+1] *= f[i]} over the whole vectors of factors from 0 towards {@code count}, each
     * product stored into {@code copy} too: a vector of factors is spread over two vectors of pairs by two lane
     * shuffles. The caller checked the ranges and does the rest.
     *
     * @return the first factor not done
     */
    static int scaleComplex(MemorySegment y, MemorySegment factors, double[] factorArray, MemorySegment copy,
                            int count) {
        final int tail = SPECIES.loopBound(count);
        final long end = (long) tail << 3;
        for (long at = 0; at < end; at += STEP) {
            DoubleVector factor = (factorArray != null ? DoubleVector.fromArray(SPECIES, factorArray, (int) (at >>> 3))
                    : DoubleVector.fromMemorySegment(SPECIES, factors, at, ORDER));
            long low = at << 1;
            long high = low + STEP;
            DoubleVector first =
                    DoubleVector.fromMemorySegment(SPECIES, y, low, ORDER).mul(factor.rearrange(LOW_FACTORS));
            DoubleVector second =
                    DoubleVector.fromMemorySegment(SPECIES, y, high, ORDER).mul(factor.rearrange(HIGH_FACTORS));
            first.intoMemorySegment(y, low, ORDER);
            second.intoMemorySegment(y, high, ORDER);
            first.intoMemorySegment(copy, low, ORDER);
            second.intoMemorySegment(copy, high, ORDER);
        }
        return tail;
    }
}
