package dev.lazarus.recovery.crash;

import dev.lazarus.easycrash.trace.AccessTracer;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;

/**
 * NVCT's cache and main-memory simulation for one rank's heap: a multi-level, set-associative, LRU, write-back,
 * write-allocate hierarchy that knows, at every moment, what NVM holds.
 *
 * <h2>Inclusive, with back-invalidation</h2>
 * Every level holds every line of the levels above it; a level that evicts a line invalidates it above. We chose
 * inclusion because it keeps the NVM image exact and cheap: with inclusion, a line's data reaches NVM only when the
 * line leaves the last level or is persisted, so whether its newest copy sits in L1 or L3 does not change NVM, and
 * one dirty bit (with one saved copy of the line) per last-level entry is the whole story. (In a non-inclusive
 * hierarchy the last level can write back a stale copy while L1 keeps a newer one; NVM would then hold a value that
 * is neither the live one nor the old one, and the model would need per-level data copies.) A store marks its line
 * dirty; an L1 or L2 eviction of a dirty line hands the dirt down to the level below, which holds the line by
 * inclusion, so the dirt stays with the line's last-level entry; a last-level eviction back-invalidates the line
 * above and writes it back to NVM if dirty. As on inclusive hardware, the last level's LRU sees only the misses of
 * the level above it, so a line hot in L1 can still be evicted from the last level (and from L1 with it).
 *
 * <h2>The NVM image</h2>
 * The model reads the live heap but never copies it per access. When a clean line turns dirty (a store to it, which
 * is traced <em>before</em> memory is written) it saves the line's bytes: what NVM holds. A write-back drops the
 * saved bytes. So the NVM image is live memory with each dirty line replaced by its saved bytes. Writes the tracer
 * does not see are taken as already in NVM.
 *
 * <p>Persistence operations ({@link #persist}) have CLWB semantics: dirty lines in range are written back and stay
 * cached, clean; the LRU order is unchanged. Accesses may straddle two lines; each line is simulated. Loads and
 * stores allocate nothing. Not thread-safe: one model per rank, driven by the rank's application thread.
 */
public final class CacheModel implements AccessTracer {
    private final CacheConfig config;
    private final MemorySegment heap;
    private final long heapSize;
    private final int lineShift;
    private final CacheLevel[] levels;
    private final CacheLevel l1;
    private final CacheLevel lastLevel;
    /** Backup slot of each last-level entry's line, -1 while the line is clean. */
    private final int[] backupSlot;
    private final LineBackups backups;
    private final long[] misses;
    private long clock;
    private long accesses;
    private long nvmLineWrites;
    /** The line of the latest access, and its last-level entry: a repeat access skips the lookup entirely. */
    private long recentLine = CacheLevel.INVALID;
    private int recentEntry;
    private int iteration = -1;
    private int region;

    /**
     * An empty (cold) hierarchy over {@code heap}, whose byte {@code i} is heap offset {@code i}.
     *
     * @param config the hierarchy
     * @param heap   the live heap; the model only reads it
     */
    public CacheModel(CacheConfig config, MemorySegment heap) {
        this.config = config;
        this.heap = heap;
        this.heapSize = heap.byteSize();
        this.lineShift = Integer.numberOfTrailingZeros(config.lineSize());
        int depth = config.depth();
        this.levels = new CacheLevel[depth];
        for (int i = 0; i < depth; i++) {
            levels[i] = new CacheLevel(config.sets(i), config.levels().get(i).associativity(), i == depth - 1);
        }
        this.l1 = levels[0];
        this.lastLevel = levels[depth - 1];
        this.backupSlot = new int[config.lines(depth - 1)];
        Arrays.fill(backupSlot, -1);
        this.backups = new LineBackups(config.lineSize(), config.lines(depth - 1));
        this.misses = new long[depth];
    }

    @Override
    public void load(long address, int bytes) {
        accesses++;
        long line = address >>> lineShift;
        touch(line, false);
        long lastLine = (address + bytes - 1) >>> lineShift;
        if (lastLine != line) {
            touch(lastLine, false);
        }
    }

    @Override
    public void store(long address, int bytes) {
        accesses++;
        long line = address >>> lineShift;
        touch(line, true);
        long lastLine = (address + bytes - 1) >>> lineShift;
        if (lastLine != line) {
            touch(lastLine, true);
        }
    }

    private void touch(long line, boolean store) {
        int entry;
        if (line == recentLine) {
            // Already the most recently used line of L1: its stamp is the newest, so LRU order needs no update.
            entry = recentEntry;
        } else {
            long now = ++clock;
            int l1Entry = l1.find(line);
            if (l1Entry >= 0) {
                l1.stamps[l1Entry] = now;
                entry = l1.lastLevelEntry[l1Entry];
            } else {
                entry = miss(line, now);
            }
            recentLine = line;
            recentEntry = entry;
        }
        if (store && backupSlot[entry] < 0) {
            turnDirty(entry, line);
        }
    }

    /** An L1 miss: finds the line below (or fetches it from NVM) and fills it into every level above. */
    private int miss(long line, long now) {
        misses[0]++;
        int depth = levels.length;
        int hitLevel = depth;
        int entry = -1;
        for (int k = 1; k < depth; k++) {
            CacheLevel level = levels[k];
            int found = level.find(line);
            if (found >= 0) {
                level.stamps[found] = now;
                entry = level == lastLevel ? found : level.lastLevelEntry[found]; // one memory read fewer
                hitLevel = k;
                break;
            }
            misses[k]++;
        }
        if (hitLevel == depth) {
            entry = fillLastLevel(line, now);
            hitLevel = depth - 1;
        }
        for (int k = hitLevel - 1; k >= 0; k--) {
            CacheLevel level = levels[k];
            int victim = level.victim(line);
            long evicted = level.tags[victim];
            if (evicted != CacheLevel.INVALID) {
                invalidateAbove(evicted, k); // its dirt, if any, stays with its last-level entry
            }
            level.install(victim, line, now, entry);
        }
        return entry;
    }

    private int fillLastLevel(long line, long now) {
        int victim = lastLevel.victim(line);
        long evicted = lastLevel.tags[victim];
        if (evicted != CacheLevel.INVALID) {
            invalidateAbove(evicted, levels.length - 1);
            writeBack(victim);
        }
        lastLevel.install(victim, line, now, victim);
        return victim;
    }

    private void invalidateAbove(long line, int level) {
        for (int k = 0; k < level; k++) {
            levels[k].invalidate(line);
        }
    }

    private void turnDirty(int entry, long line) {
        long start = line << lineShift;
        if (start < 0 || start >= heapSize) {
            throw new IndexOutOfBoundsException("store to line address=" + start + " outside the heap size="
                    + heapSize);
        }
        backupSlot[entry] = backups.acquire(line, entry, heap, start, (int) Math.min(1L << lineShift,
                heapSize - start));
    }

    private void writeBack(int entry) {
        int slot = backupSlot[entry];
        if (slot >= 0) {
            backups.release(slot);
            backupSlot[entry] = -1;
            nvmLineWrites++;
        }
    }

    /** CLWB of every line of {@code [address, address + length)}: dirty ones are written back and stay cached. */
    @Override
    public void persist(long address, long length) {
        if (length <= 0 || backups.used() == 0) {
            return;
        }
        long first = address >>> lineShift;
        long last = (address + length - 1) >>> lineShift;
        long lines = last - first + 1;
        if (lines <= backups.capacity() / lastLevel.ways) {
            for (long line = first; line <= last; line++) {
                int entry = lastLevel.find(line);
                if (entry >= 0) {
                    writeBack(entry);
                }
            }
        } else {
            // A range larger than the dirty-line table: scanning the table is cheaper than a lookup per line.
            for (int slot = 0; slot < backups.capacity(); slot++) {
                long line = backups.line(slot);
                if (line >= first && line <= last) {
                    writeBack(backups.entry(slot));
                }
            }
        }
    }

    @Override
    public void regionEnd(int region, int iteration) {
        this.region = Math.max(this.region, region + 1);
    }

    @Override
    public void iterationBegin(int iteration) {
        this.iteration = iteration;
        this.region = 0;
    }

    /** Traced loads and stores so far (a straddling access counts once). */
    public long accessCount() {
        return accesses;
    }

    /** The main-loop iteration in progress, or -1 before the first {@code iterationBegin}. */
    public int iteration() {
        return iteration;
    }

    /** The code region in progress: one past the highest region ended in this iteration. */
    public int region() {
        return region;
    }

    /** Lines written back to NVM so far, by last-level evictions and persists (the paper's NVM write count). */
    public long nvmLineWrites() {
        return nvmLineWrites;
    }

    /** Dirty lines in the hierarchy now. */
    public int dirtyLineCount() {
        return backups.used();
    }

    /** Misses of level {@code level} (0 = L1) so far. */
    public long misses(int level) {
        return misses[level];
    }

    public CacheConfig config() {
        return config;
    }

    /** Bytes of the heap the model reads. */
    public long heapSize() {
        return heapSize;
    }

    /** The highest level (0 = L1) holding the line of {@code address}, or -1 if no level holds it. */
    public int levelOf(long address) {
        long line = address >>> lineShift;
        for (int k = 0; k < levels.length; k++) {
            if (levels[k].find(line) >= 0) {
                return k;
            }
        }
        return -1;
    }

    /** Whether level {@code level} (0 = L1) holds the line of {@code address}. */
    public boolean holds(int level, long address) {
        return levels[level].find(address >>> lineShift) >= 0;
    }

    /** Whether the line of {@code address} is cached and dirty. */
    public boolean isDirty(long address) {
        int entry = lastLevel.find(address >>> lineShift);
        return entry >= 0 && backupSlot[entry] >= 0;
    }

    /**
     * NVCT's dirty bytes of {@code [offset, offset + length)}: bytes in dirty lines whose live value differs from
     * NVM. A dirty line rewritten with its old values counts nothing.
     */
    public long dirtyBytes(long offset, long length) {
        long end = Math.min(offset + length, heapSize);
        long count = 0;
        if (backups.used() == 0) {
            return 0;
        }
        for (int slot = 0; slot < backups.capacity(); slot++) {
            long line = backups.line(slot);
            if (line < 0) {
                continue;
            }
            long from = Math.max(line << lineShift, offset);
            long to = Math.min((line + 1) << lineShift, end);
            if (from < to) {
                count += backups.differingBytes(slot, heap, from, to);
            }
        }
        return count;
    }

    /** Per-object dirty bytes and inconsistent rates now. */
    public InconsistencyReport inconsistency(List<ObjectRange> objects) {
        long[] dirty = new long[objects.size()];
        for (int i = 0; i < dirty.length; i++) {
            dirty[i] = dirtyBytes(objects.get(i).offset(), objects.get(i).length());
        }
        return new InconsistencyReport(objects, dirty);
    }

    /**
     * What NVM holds for {@code [offset, offset + length)} now: live memory with each dirty line's bytes replaced by
     * what was saved when it turned dirty.
     */
    public byte[] nvmImage(long offset, long length) {
        if (offset < 0 || length < 0 || offset + length > heapSize || length > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("NVM image offset=" + offset + " length=" + length
                    + " must lie in the heap size=" + heapSize + " and fit a byte[]");
        }
        byte[] image = new byte[(int) length];
        MemorySegment.copy(heap, ValueLayout.JAVA_BYTE, offset, image, 0, image.length);
        long end = offset + length;
        for (int slot = 0; slot < backups.capacity(); slot++) {
            long line = backups.line(slot);
            if (line < 0) {
                continue;
            }
            long from = Math.max(line << lineShift, offset);
            long to = Math.min((line + 1) << lineShift, end);
            if (from < to) {
                backups.copyTo(slot, from, to, image, offset);
            }
        }
        return image;
    }

    /** A crash now: the NVM image of the whole heap, no objects of interest. */
    public CrashSnapshot snapshot() {
        return snapshot(0, List.of(), 0, heapSize);
    }

    /** A crash now: the NVM image of the whole heap and the inconsistency of {@code objects}. */
    public CrashSnapshot snapshot(List<ObjectRange> objects) {
        return snapshot(0, objects, 0, heapSize);
    }

    /**
     * A crash now.
     *
     * @param ordinal     the crash point's position in its run (0 when taken directly)
     * @param objects     objects whose inconsistency to report
     * @param imageOffset heap offset of the image's first byte
     * @param imageLength bytes of NVM image to keep
     */
    public CrashSnapshot snapshot(int ordinal, List<ObjectRange> objects, long imageOffset, long imageLength) {
        byte[] image = nvmImage(imageOffset, imageLength);
        return new CrashSnapshot(ordinal, accesses, iteration, region, imageOffset, image, inconsistency(objects),
                backups.used(), nvmLineWrites);
    }
}
