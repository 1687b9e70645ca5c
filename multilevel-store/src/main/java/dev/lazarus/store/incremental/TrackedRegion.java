package dev.lazarus.store.incremental;

import dev.lazarus.store.ProtectedRegion;
import dev.lazarus.store.dirty.BlockHashes;
import dev.lazarus.store.dirty.PageSize;
import dev.lazarus.store.dirty.ReceivedRanges;

import java.lang.foreign.MemorySegment;
import java.util.BitSet;

/** A protected region with its dirty-detection state: block hashes, received ranges, and reusable block sets. */
final class TrackedRegion {
    static final long PAGE_SIZE = PageSize.system();

    final ProtectedRegion region;
    final BlockHashes hashes;
    final ReceivedRanges received;
    final BitSet candidates;
    final BitSet changed;
    final BitSet pages;
    /** The whole pages of the region the scanner tracks, or null; a partial last page is hashed every time. */
    final MemorySegment trackedPages;

    TrackedRegion(ProtectedRegion region, int blockSize, MemorySegment trackedPages) {
        this.region = region;
        this.hashes = new BlockHashes(region.memory().byteSize(), blockSize);
        this.received = new ReceivedRanges(region.memory(), blockSize);
        this.candidates = new BitSet(hashes.blocks());
        this.changed = new BitSet(hashes.blocks());
        this.pages = new BitSet();
        this.trackedPages = trackedPages;
    }

    /**
     * @return the region's whole pages, if its memory is native and starts on a page boundary; else null
     */
    static MemorySegment wholePages(MemorySegment memory) {
        long whole = memory.byteSize() / PAGE_SIZE * PAGE_SIZE;
        if (!memory.isNative() || memory.address() % PAGE_SIZE != 0 || whole == 0) {
            return null;
        }
        return memory.asSlice(0, whole);
    }

    boolean pageTracked() {
        return trackedPages != null;
    }

    /** Marks what the scanner cannot see as written: everything if untracked, else the partial last page. */
    void untrackedWritten() {
        long tracked = trackedPages == null ? 0 : trackedPages.byteSize();
        if (tracked < byteSize()) {
            pagesWritten(tracked, byteSize() - tracked);
        }
    }

    long byteSize() {
        return region.memory().byteSize();
    }

    /** Adds pages {@code [offset, offset + length)} to the written pages and their blocks to the candidates. */
    void pagesWritten(long offset, long length) {
        long end = Math.min(byteSize(), offset + length);
        if (end <= offset) {
            return;
        }
        pages.set((int) (offset / PAGE_SIZE), (int) ((end - 1) / PAGE_SIZE) + 1);
        int blockSize = hashes.blockSize();
        candidates.set((int) (offset / blockSize), (int) ((end - 1) / blockSize) + 1);
    }

    /** Adds the pages of the candidate blocks from receive hooks, for the page-level size. */
    void pagesOfCandidates() {
        int blockSize = hashes.blockSize();
        for (int first = candidates.nextSetBit(0); first >= 0; first = candidates.nextSetBit(first)) {
            int end = candidates.nextClearBit(first);
            long start = (long) first * blockSize;
            long stop = Math.min(byteSize(), (long) end * blockSize);
            pages.set((int) (start / PAGE_SIZE), (int) ((stop - 1) / PAGE_SIZE) + 1);
            first = end;
        }
    }

    /** @return bytes of the written pages, the last page clipped to the region */
    long pageBytes() {
        long bytes = (long) pages.cardinality() * PAGE_SIZE;
        long lastPage = (byteSize() - 1) / PAGE_SIZE;
        if (byteSize() > 0 && pages.get((int) lastPage)) {
            bytes -= (lastPage + 1) * PAGE_SIZE - byteSize();
        }
        return bytes;
    }

    /** @return bytes of the changed blocks, the last block clipped to the region */
    long changedBytes() {
        int blockSize = hashes.blockSize();
        long bytes = (long) changed.cardinality() * blockSize;
        int last = hashes.blocks() - 1;
        if (last >= 0 && changed.get(last)) {
            bytes -= (long) (last + 1) * blockSize - byteSize();
        }
        return bytes;
    }
}
