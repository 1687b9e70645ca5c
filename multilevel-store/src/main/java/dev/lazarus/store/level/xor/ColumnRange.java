package dev.lazarus.store.level.xor;

import java.util.ArrayList;
import java.util.List;

/**
 * Bytes {@code [begin, end)} of every chunk column of an {@link XorSetLayout}: the share of one of several workers
 * that encode or rebuild one member in parallel. Work on different ranges touches disjoint bytes of every source and
 * output, so the workers need nothing from each other.
 *
 * @param begin offset in a chunk where the range starts, a multiple of {@link XorSetLayout#CHUNK_ALIGNMENT}
 * @param end   offset in a chunk where it ends (exclusive), at most the chunk size
 */
public record ColumnRange(long begin, long end) {

    /** @throws IllegalArgumentException unless {@code 0 <= begin <= end} and {@code begin} is aligned */
    public ColumnRange {
        if (begin < 0 || end < begin || begin % XorSetLayout.CHUNK_ALIGNMENT != 0) {
            throw new IllegalArgumentException("column range invalid: begin=" + begin + " end=" + end);
        }
    }

    /** @return the whole chunk: what one worker alone does */
    public static ColumnRange whole(XorSetLayout layout) {
        return new ColumnRange(0, layout.chunkSize());
    }

    /**
     * Splits the chunk into at most {@code parts} ranges of nearly equal size, each a multiple of {@code unit} bytes
     * but the last, so that no worker gets less than one unit (a codec slice, say) unless the chunk is smaller.
     *
     * @param unit a positive multiple of {@link XorSetLayout#CHUNK_ALIGNMENT}
     * @return one range at least (empty when the chunk is), in order, covering the chunk exactly
     */
    public static List<ColumnRange> split(XorSetLayout layout, int parts, long unit) {
        return split(layout.chunkSize(), parts, unit);
    }

    /**
     * Splits {@code [0, chunk)} as {@link #split(XorSetLayout, int, long)} splits a layout's chunk: for work on one
     * stream of bytes that several workers share, such as copying a whole payload.
     *
     * @param chunk bytes to split, 0 or more
     */
    public static List<ColumnRange> split(long chunk, int parts, long unit) {
        if (parts < 1 || unit <= 0 || unit % XorSetLayout.CHUNK_ALIGNMENT != 0 || chunk < 0) {
            throw new IllegalArgumentException("cannot split columns: parts=" + parts + " unit=" + unit + " chunk="
                    + chunk);
        }
        long units = (chunk + unit - 1) / unit;
        int count = (int) Math.max(1, Math.min(parts, units));
        List<ColumnRange> ranges = new ArrayList<>(count);
        long begin = 0;
        for (int i = 1; i <= count; i++) {
            long end = i == count ? chunk : Math.min(chunk, units * i / count * unit);
            ranges.add(new ColumnRange(begin, end));
            begin = end;
        }
        return ranges;
    }

    /** @throws IllegalArgumentException if the range reaches past the layout's chunk */
    void check(XorSetLayout layout) {
        if (end > layout.chunkSize()) {
            throw new IllegalArgumentException("column range past the chunk: begin=" + begin + " end=" + end
                    + " chunkSize=" + layout.chunkSize());
        }
    }

    /** @return bytes per column in the range */
    public long length() {
        return end - begin;
    }
}
