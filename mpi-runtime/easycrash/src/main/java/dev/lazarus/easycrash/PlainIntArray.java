package dev.lazarus.easycrash;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * A {@code int} array in the Java heap: what an application's object is with EasyCrash off, so that the same code runs
 * as the plain program would (its loops over a {@code int[]}).
 */
final class PlainIntArray extends IntArray {
    private final int[] values;

    PlainIntArray(String name, ObjectRole role, int[] values) {
        super(name, role, MemorySegment.ofArray(values), -1, null, values.length);
        this.values = values;
    }

    @Override
    public int get(int index) {
        return values[index];
    }

    @Override
    public void set(int index, int value) {
        values[index] = value;
    }

    @Override
    public void fill(int value) {
        Arrays.fill(values, value);
    }

    @Override
    public void copyFrom(int[] source, int sourceIndex, int at, int count) {
        System.arraycopy(source, sourceIndex, values, at, count);
    }

    @Override
    public void copyTo(int at, int[] target, int targetIndex, int count) {
        System.arraycopy(values, at, target, targetIndex, count);
    }

    @Override
    public void copyTo(int at, IntArray target, int targetAt, int count) {
        target.copyFrom(values, at, targetAt, count);
    }
}
