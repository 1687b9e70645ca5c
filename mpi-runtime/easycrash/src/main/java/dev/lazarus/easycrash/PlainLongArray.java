package dev.lazarus.easycrash;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * A {@code long} array in the Java heap: what an application's object is with EasyCrash off, so that the same code runs
 * as the plain program would (its loops over a {@code long[]}).
 */
final class PlainLongArray extends LongArray {
    private final long[] values;

    PlainLongArray(String name, ObjectRole role, long[] values) {
        super(name, role, MemorySegment.ofArray(values), -1, null, values.length);
        this.values = values;
    }

    @Override
    public long get(int index) {
        return values[index];
    }

    @Override
    public void set(int index, long value) {
        values[index] = value;
    }

    @Override
    public void fill(long value) {
        Arrays.fill(values, value);
    }

    @Override
    public void copyFrom(long[] source, int sourceIndex, int at, int count) {
        System.arraycopy(source, sourceIndex, values, at, count);
    }

    @Override
    public void copyTo(int at, long[] target, int targetIndex, int count) {
        System.arraycopy(values, at, target, targetIndex, count);
    }

    @Override
    public void copyTo(int at, LongArray target, int targetAt, int count) {
        target.copyFrom(values, at, targetAt, count);
    }
}
