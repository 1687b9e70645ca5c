package dev.lazarus.recovery.crash;

import java.util.Arrays;

/**
 * One set-associative cache level as flat arrays, so a lookup touches a few contiguous array slots and allocates
 * nothing. Entry {@code set * ways + way} holds a tag (the line number, {@code address >>> lineShift}, or
 * {@link #INVALID}), an LRU stamp and the index of the line's entry in the last level.
 *
 * <p>LRU by timestamp: a hit writes the model's access clock into the entry, and the victim is the entry with the
 * smallest stamp. That is exact LRU at one store per hit, cheaper than shifting per-way ages. Invalid entries carry
 * stamp 0, below every real stamp, so they are filled first.
 */
final class CacheLevel {
    /** Tag of an entry that holds no line (line numbers are never negative). */
    static final long INVALID = -1L;

    final int sets;
    final int ways;
    /** {@code sets - 1} when sets is a power of two; -1 selects modulo indexing (e.g. 28672 sets). */
    private final long setMask;
    /**
     * {@code ceil(2^64 / sets)}: Lemire's fast modulo turns {@code line % sets} into two multiplications for lines
     * below 2^32 (heaps below 256 GiB), because a 64-bit division costs tens of cycles on every lower-level lookup.
     */
    private final long modMultiplier;
    final long[] tags;
    final long[] stamps;
    /**
     * Where each entry's line sits in the last level. Inclusion keeps it valid: a line leaves the last level only
     * after it left every level above. In the last level itself the entry points to itself.
     */
    final int[] lastLevelEntry;

    CacheLevel(int sets, int ways, boolean lastLevel) {
        this.sets = sets;
        this.ways = ways;
        this.setMask = Integer.bitCount(sets) == 1 ? sets - 1 : -1;
        this.modMultiplier = setMask >= 0 ? 0 : Long.divideUnsigned(-1L, sets) + 1;
        int entries = sets * ways;
        this.tags = new long[entries];
        this.stamps = new long[entries];
        this.lastLevelEntry = new int[entries];
        Arrays.fill(tags, INVALID);
        if (lastLevel) {
            Arrays.setAll(lastLevelEntry, i -> i);
        }
    }

    /** The first entry of the set {@code line} maps to. */
    int firstEntry(long line) {
        long set;
        if (setMask >= 0) {
            set = line & setMask;
        } else if (line >>> 32 == 0) {
            set = Math.unsignedMultiplyHigh(modMultiplier * line, sets);
        } else {
            set = line % sets;
        }
        return (int) set * ways;
    }

    /** The entry holding {@code line}, or -1. */
    int find(long line) {
        int first = firstEntry(line);
        int end = first + ways;
        for (int entry = first; entry < end; entry++) {
            if (tags[entry] == line) {
                return entry;
            }
        }
        return -1;
    }

    /** The entry a fill of {@code line} replaces: an invalid one if any, else the least recently used. */
    int victim(long line) {
        int first = firstEntry(line);
        int end = first + ways;
        int victim = first;
        long oldest = Long.MAX_VALUE;
        for (int entry = first; entry < end; entry++) {
            long stamp = stamps[entry];
            if (stamp < oldest) {
                oldest = stamp;
                victim = entry;
            }
        }
        return victim;
    }

    void install(int entry, long line, long stamp, int lastLevelIndex) {
        tags[entry] = line;
        stamps[entry] = stamp;
        lastLevelEntry[entry] = lastLevelIndex;
    }

    /** Drops {@code line} if this level holds it (back-invalidation from a level below). */
    void invalidate(long line) {
        int entry = find(line);
        if (entry >= 0) {
            tags[entry] = INVALID;
            stamps[entry] = 0;
        }
    }
}
