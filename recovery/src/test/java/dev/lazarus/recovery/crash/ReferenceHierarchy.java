package dev.lazarus.recovery.crash;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The model's specification written the obvious way (per-set lists in LRU order, a map of saved lines) to check the
 * flat-array model against. Slow, and only for tests.
 */
final class ReferenceHierarchy {
    private final CacheConfig config;
    private final MemorySegment heap;
    private final List<List<List<Long>>> levels = new ArrayList<>(); // level -> set -> lines, least recent first
    private final Map<Long, byte[]> saved = new HashMap<>(); // dirty line -> what NVM holds
    private long nvmWrites;

    ReferenceHierarchy(CacheConfig config, MemorySegment heap) {
        this.config = config;
        this.heap = heap;
        for (int level = 0; level < config.depth(); level++) {
            List<List<Long>> sets = new ArrayList<>();
            for (int set = 0; set < config.sets(level); set++) {
                sets.add(new ArrayList<>());
            }
            levels.add(sets);
        }
    }

    private List<Long> set(int level, long line) {
        return levels.get(level).get((int) (line % config.sets(level)));
    }

    void access(long address, boolean store) {
        long line = address / config.lineSize();
        int depth = config.depth();
        int hit = depth;
        for (int level = 0; level < depth; level++) {
            List<Long> set = set(level, line);
            if (set.remove(line)) {
                set.add(line);
                hit = level;
                break;
            }
        }
        for (int level = Math.min(hit, depth) - 1; level >= 0; level--) {
            List<Long> set = set(level, line);
            if (set.size() == config.levels().get(level).associativity()) {
                long evicted = set.removeFirst();
                for (int above = 0; above < level; above++) {
                    set(above, evicted).remove(evicted);
                }
                if (level == depth - 1 && saved.remove(evicted) != null) {
                    nvmWrites++;
                }
            }
            set.add(line);
        }
        if (store && !saved.containsKey(line)) {
            long start = line * config.lineSize();
            saved.put(line, heap.asSlice(start, config.lineSize()).toArray(ValueLayout.JAVA_BYTE));
        }
    }

    void persist(long address, long length) {
        for (long line = address / config.lineSize(); line <= (address + length - 1) / config.lineSize(); line++) {
            if (saved.remove(line) != null) {
                nvmWrites++;
            }
        }
    }

    long nvmWrites() {
        return nvmWrites;
    }

    int dirtyLines() {
        return saved.size();
    }

    boolean holds(int level, long address) {
        return set(level, address / config.lineSize()).contains(address / config.lineSize());
    }

    int levelOf(long address) {
        for (int level = 0; level < config.depth(); level++) {
            if (holds(level, address)) {
                return level;
            }
        }
        return -1;
    }

    byte[] nvmImage() {
        byte[] image = heap.toArray(ValueLayout.JAVA_BYTE);
        saved.forEach((line, bytes) -> System.arraycopy(bytes, 0, image, (int) (line * config.lineSize()),
                bytes.length));
        return image;
    }

    long dirtyBytes() {
        byte[] live = heap.toArray(ValueLayout.JAVA_BYTE);
        byte[] nvm = nvmImage();
        long count = 0;
        for (int i = 0; i < live.length; i++) {
            count += live[i] != nvm[i] ? 1 : 0;
        }
        return count;
    }
}
