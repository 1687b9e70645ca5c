package dev.lazarus.easycrash;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Objects;

/**
 * A {@code double} array in the Java heap: what an application's object is with EasyCrash off, so that the same code
 * runs as the plain program would (its loops over a {@code double[]}).
 */
final class PlainDoubleArray extends DoubleArray {
    private final double[] values;

    PlainDoubleArray(String name, ObjectRole role, double[] values) {
        super(name, role, MemorySegment.ofArray(values), -1, null, values.length);
        this.values = values;
    }

    /** The array itself, for {@link VectorLoops}' lanes. */
    double[] values() {
        return values;
    }

    @Override
    public double get(int index) {
        return values[index];
    }

    @Override
    public void set(int index, double value) {
        values[index] = value;
    }

    /**
     * Indexes the array with {@code (int) base + stride * i}, the {@code int} expression a loop over a
     * {@code double[]} would use, which the JIT sees as linear in {@code i} and checks once per loop. Only
     * {@code base} is checked here (loop-invariant, so also hoisted): it must be an {@code int}, else the cast would
     * wrap it onto another element. The rest is {@code int} arithmetic, which wraps on overflow as any array index
     * does. A {@code long} check of {@code base + stride * i} per access would be hoisted as well, but its arithmetic
     * stays in the loop body and keeps C2 from unrolling loops it unrolls over a {@code double[]} (MG's resid).
     */
    @Override
    public double get(long base, int i, int stride) {
        if ((int) base != base) {
            throw baseOutOfRange(base);
        }
        return values[(int) base + stride * i];
    }

    @Override
    public void set(long base, int i, int stride, double value) {
        if ((int) base != base) {
            throw baseOutOfRange(base);
        }
        values[(int) base + stride * i] = value;
    }

    /** As the plain program's loop over two {@code double[]}, which C2 vectorizes itself. */
    @Override
    public void addScaled(double alpha, DoubleArray x, int from, int to) {
        checkBulkRange(x, from, to);
        double[] y = values;
        for (int j = from; j < to; j++) {
            y[j] = y[j] + alpha * x.get(j);
        }
    }

    @Override
    public void setScaled(double alpha, DoubleArray x, int from, int to) {
        checkBulkRange(x, from, to);
        double[] y = values;
        for (int j = from; j < to; j++) {
            y[j] = alpha * x.get(j);
        }
    }

    @Override
    public void scaleAndAdd(double beta, DoubleArray x, int from, int to) {
        checkBulkRange(x, from, to);
        double[] y = values;
        for (int j = from; j < to; j++) {
            y[j] = x.get(j) + beta * y[j];
        }
    }

    @Override
    public void scaleComplex(DoubleArray factors, DoubleArray copy) {
        checkComplexScaling(factors, copy);
        double[] y = values;
        int count = factors.length;
        for (int i = 0; i < count; i++) {
            double f = factors.get(i);
            double re = y[2 * i] * f;
            double im = y[2 * i + 1] * f;
            y[2 * i] = re;
            y[2 * i + 1] = im;
            copy.set(2 * i, re);
            copy.set(2 * i + 1, im);
        }
    }

    @Override
    public void fill(double value) {
        Arrays.fill(values, value);
    }

    @Override
    public void copyFrom(double[] source, int sourceIndex, int at, int count) {
        System.arraycopy(source, sourceIndex, values, at, count);
    }

    @Override
    public void copyTo(int at, double[] target, int targetIndex, int count) {
        System.arraycopy(values, at, target, targetIndex, count);
    }

    @Override
    public void copyTo(int at, DoubleArray target, int targetAt, int count) {
        target.copyFrom(values, at, targetAt, count);
    }
}
