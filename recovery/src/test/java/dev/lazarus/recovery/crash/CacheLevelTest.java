package dev.lazarus.recovery.crash;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Set indexing: masks for powers of two, and the multiply-based modulo for every other set count. */
class CacheLevelTest {

    @Test
    void setIndexIsTheLineModuloTheSetCount() {
        SplittableRandom random = new SplittableRandom(3);
        for (int sets : new int[] {1, 3, 7, 64, 1365, 28672, 1_000_003}) {
            CacheLevel level = new CacheLevel(sets, 2, true);
            long[] edges = {0, 1, sets - 1L, sets, (1L << 32) - 1, 1L << 32, (1L << 32) + 5, Long.MAX_VALUE >>> 6};
            for (long line : edges) {
                assertEquals((int) (line % sets) * 2, level.firstEntry(line), "sets=" + sets + " line=" + line);
            }
            for (int i = 0; i < 200_000; i++) {
                long line = i % 2 == 0 ? random.nextLong(1L << 32) : random.nextLong(Long.MAX_VALUE >>> 6);
                assertEquals((int) (line % sets) * 2, level.firstEntry(line), "sets=" + sets + " line=" + line);
            }
        }
    }
}
