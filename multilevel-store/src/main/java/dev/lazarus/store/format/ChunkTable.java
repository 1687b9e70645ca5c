package dev.lazarus.store.format;

import java.util.Arrays;

/**
 * The chunks of a rank checkpoint's data file, in file order: for each, the variable it belongs to, where in the
 * variable and where in the data file its bytes are, and their CRC32C. Primitive arrays, grown by doubling, because a
 * manifest may list millions of chunks.
 */
public final class ChunkTable {
    private int size;
    private int[] variable = new int[16];
    private int[] length = new int[16];
    private long[] variableOffset = new long[16];
    private long[] dataOffset = new long[16];
    private int[] crc = new int[16];

    /** Appends a chunk. */
    public void add(int variableIndex, long offsetInVariable, int byteLength, long offsetInData, int crc32c) {
        if (size == variable.length) {
            int capacity = size * 2;
            variable = Arrays.copyOf(variable, capacity);
            length = Arrays.copyOf(length, capacity);
            variableOffset = Arrays.copyOf(variableOffset, capacity);
            dataOffset = Arrays.copyOf(dataOffset, capacity);
            crc = Arrays.copyOf(crc, capacity);
        }
        variable[size] = variableIndex;
        length[size] = byteLength;
        variableOffset[size] = offsetInVariable;
        dataOffset[size] = offsetInData;
        crc[size] = crc32c;
        size++;
    }

    public int size() {
        return size;
    }

    public int variable(int chunk) {
        return variable[checked(chunk)];
    }

    public int length(int chunk) {
        return length[checked(chunk)];
    }

    public long variableOffset(int chunk) {
        return variableOffset[checked(chunk)];
    }

    public long dataOffset(int chunk) {
        return dataOffset[checked(chunk)];
    }

    public int crc(int chunk) {
        return crc[checked(chunk)];
    }

    /** @return the sum of the chunks' lengths */
    public long totalBytes() {
        long total = 0;
        for (int i = 0; i < size; i++) {
            total += length[i];
        }
        return total;
    }

    private int checked(int chunk) {
        if (chunk < 0 || chunk >= size) {
            throw new IndexOutOfBoundsException("chunk=" + chunk + " size=" + size);
        }
        return chunk;
    }
}
