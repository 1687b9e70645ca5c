package dev.lazarus.recovery.crash;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * The dirty lines of the hierarchy and, for each, the bytes NVM still holds for it. When a clean line turns dirty
 * the model saves the line's bytes here as they are in memory at that moment (the store has not happened yet, and a
 * clean line's memory equals NVM); a write-back just frees the slot. So the NVM image is live memory with every
 * dirty line's bytes replaced by its backup, and no per-store copy of data is ever needed.
 *
 * <p>Slots live in one preallocated heap segment and flat arrays; a free-slot stack makes acquire and release O(1)
 * and allocation-free. The pool doubles when full, up to the last level's line count (every dirty line is in the
 * last level, so it never needs more).
 */
final class LineBackups {
    private static final int INITIAL_SLOTS = 1 << 12;
    private static final long FREE = -1L;
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final long LOW_SEVEN_BITS = 0x7f7f7f7f7f7f7f7fL;
    private static final long HIGH_BITS = 0x8080808080808080L;

    private final int lineSize;
    private final int lineShift;
    private final int maxSlots;
    private MemorySegment bytes;
    /** Line number of each slot, {@link #FREE} when unused. */
    private long[] lines;
    /** Last-level entry of each slot's line, so a write-back found by scanning slots can clean that entry. */
    private int[] entries;
    private int[] freeSlots;
    private int freeCount;
    private int used;

    LineBackups(int lineSize, int maxSlots) {
        this.lineSize = lineSize;
        this.lineShift = Integer.numberOfTrailingZeros(lineSize);
        this.maxSlots = maxSlots;
        resize(Math.min(INITIAL_SLOTS, maxSlots));
    }

    /** Saves {@code length} bytes of {@code heap} at {@code start} (line {@code line}) and returns the slot. */
    int acquire(long line, int entry, MemorySegment heap, long start, int length) {
        if (freeCount == 0) {
            grow();
        }
        int slot = freeSlots[--freeCount];
        lines[slot] = line;
        entries[slot] = entry;
        MemorySegment.copy(heap, start, bytes, (long) slot << lineShift, length);
        used++;
        return slot;
    }

    void release(int slot) {
        lines[slot] = FREE;
        freeSlots[freeCount++] = slot;
        used--;
    }

    /** Slots in the pool; slots {@code [0, capacity())} may be scanned with {@link #line}. */
    int capacity() {
        return lines.length;
    }

    /** Dirty lines right now. */
    int used() {
        return used;
    }

    /** Line number held by {@code slot}, or -1 if the slot is free. */
    long line(int slot) {
        return lines[slot];
    }

    int entry(int slot) {
        return entries[slot];
    }

    /**
     * Copies the backed-up bytes of {@code slot} that fall in {@code [from, to)} (heap offsets, inside the slot's
     * line) into {@code image}, whose byte 0 is heap offset {@code imageOffset}.
     */
    void copyTo(int slot, long from, long to, byte[] image, long imageOffset) {
        long lineStart = lines[slot] << lineShift;
        MemorySegment.copy(bytes, ValueLayout.JAVA_BYTE, ((long) slot << lineShift) + (from - lineStart), image,
                (int) (from - imageOffset), (int) (to - from));
    }

    /**
     * Bytes of {@code [from, to)} (heap offsets, inside the slot's line) whose live value in {@code heap} differs
     * from the backup: NVCT's dirty bytes, compared eight at a time.
     */
    long differingBytes(int slot, MemorySegment heap, long from, long to) {
        long backup = ((long) slot << lineShift) + (from - (lines[slot] << lineShift));
        long n = to - from;
        long count = 0;
        long i = 0;
        for (; i + 8 <= n; i += 8) {
            count += nonZeroBytes(heap.get(WORD, from + i) ^ bytes.get(WORD, backup + i));
        }
        for (; i < n; i++) {
            if (heap.get(ValueLayout.JAVA_BYTE, from + i) != bytes.get(ValueLayout.JAVA_BYTE, backup + i)) {
                count++;
            }
        }
        return count;
    }

    /**
     * Non-zero bytes of {@code x}. Per byte, adding 0x7f to the low seven bits carries into the high bit exactly when
     * they are non-zero, and OR-ing {@code x} adds the byte's own high bit; no carry crosses a byte (at most 0xfe).
     */
    static int nonZeroBytes(long x) {
        return Long.bitCount((((x & LOW_SEVEN_BITS) + LOW_SEVEN_BITS) | x) & HIGH_BITS);
    }

    private void grow() {
        if (lines.length >= maxSlots) {
            throw new IllegalStateException("dirty lines=" + used + " exceed the last level's lines=" + maxSlots
                    + "; the model lost track of a line");
        }
        resize((int) Math.min((long) lines.length * 2, maxSlots));
    }

    private void resize(int slots) {
        int old = lines == null ? 0 : lines.length;
        MemorySegment grown = MemorySegment.ofArray(new long[(int) (((long) slots << lineShift) / Long.BYTES)]);
        long[] grownLines = Arrays.copyOf(lines == null ? new long[0] : lines, slots);
        Arrays.fill(grownLines, old, slots, FREE);
        if (bytes != null) {
            MemorySegment.copy(bytes, 0, grown, 0, bytes.byteSize());
        }
        bytes = grown;
        lines = grownLines;
        entries = Arrays.copyOf(entries == null ? new int[0] : entries, slots);
        freeSlots = Arrays.copyOf(freeSlots == null ? new int[0] : freeSlots, slots);
        // New slots go on the stack highest first, so the lowest is handed out next and scans stay dense.
        for (int slot = slots - 1; slot >= old; slot--) {
            freeSlots[freeCount++] = slot;
        }
    }
}
