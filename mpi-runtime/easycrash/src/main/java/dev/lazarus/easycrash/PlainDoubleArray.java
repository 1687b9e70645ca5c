package dev.lazarus.easycrash;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

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

    @Override
    public double get(int index) {
        return values[index];
    }

    @Override
    public void set(int index, double value) {
        values[index] = value;
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
