package dev.lazarus.store.incremental;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lazarus.store.ElementType;
import dev.lazarus.store.ProtectedRegion;
import dev.lazarus.store.dirty.PageSize;

import java.lang.foreign.MemorySegment;
import java.util.BitSet;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TrackedRegionTest {

    @Test
    void pageSizeIsTheSystemsOne() {
        assertEquals(PageSize.system(), TrackedRegion.PAGE_SIZE);
    }

    @Test
    void pagesOfCandidateRunsAreThePagesOfEachCandidateBlock() {
        Random random = new Random(7);
        for (int blockSize = 256; blockSize <= 65536; blockSize *= 4) {
            for (long bytes : new long[] {8, 4096, 4104, 100_000, 1 << 20}) {
                TrackedRegion region = new TrackedRegion(ProtectedRegion.of("x", ElementType.BYTE,
                        MemorySegment.ofArray(new byte[(int) bytes])), blockSize, null);
                int blocks = region.hashes.blocks();
                for (int trial = 0; trial < 20; trial++) {
                    region.candidates.clear();
                    region.pages.clear();
                    double density = random.nextDouble();
                    for (int b = 0; b < blocks; b++) {
                        if (random.nextDouble() < density) {
                            region.candidates.set(b);
                        }
                    }
                    region.pagesOfCandidates();
                    assertEquals(pagesBlockByBlock(region.candidates, blockSize, bytes), region.pages,
                            "blockSize=" + blockSize + " bytes=" + bytes + " candidates=" + region.candidates);
                }
            }
        }
    }

    /** The page set computed one candidate block at a time. */
    private static BitSet pagesBlockByBlock(BitSet candidates, int blockSize, long bytes) {
        BitSet pages = new BitSet();
        for (int block = candidates.nextSetBit(0); block >= 0; block = candidates.nextSetBit(block + 1)) {
            long start = (long) block * blockSize;
            long end = Math.min(bytes, start + blockSize);
            pages.set((int) (start / TrackedRegion.PAGE_SIZE), (int) ((end - 1) / TrackedRegion.PAGE_SIZE) + 1);
        }
        return pages;
    }
}
