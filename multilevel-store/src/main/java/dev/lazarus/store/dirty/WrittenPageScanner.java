package dev.lazarus.store.dirty;

import java.lang.foreign.MemorySegment;

/**
 * The page-level pre-filter of incremental checkpointing (libhashckpt §2.1): it reports which pages of a tracked
 * segment were written since the previous scan, so that only blocks in those pages need hashing.
 *
 * <p>A scanner is used by one thread: the rank's checkpointing thread. Implementations either track writes precisely
 * ({@link #precise()} true) or report every page of every tracked segment as written, which is always safe.
 */
public interface WrittenPageScanner extends AutoCloseable {

    /**
     * Starts tracking a segment. Writes from now on are reported by the next {@link #scanAndReset}.
     *
     * @param segment a native segment whose address and size are multiples of the page size: a file mapping (the
     *                store's regions on /dev/shm or DAX) or anonymous memory, both tracked precisely by the
     *                userfaultfd scanner
     * @throws IllegalArgumentException if the segment is not native, not page aligned, or overlaps a tracked one
     */
    void register(MemorySegment segment);

    /** Stops tracking a segment registered before. Unknown segments are ignored. */
    void unregister(MemorySegment segment);

    /**
     * Reports the runs of pages of {@code segment} written since it was registered or last scanned, and re-arms
     * tracking for those pages. Runs are reported in address order, as byte offsets from the segment's start.
     *
     * @return the number of pages reported
     * @throws IllegalArgumentException if the segment is not tracked
     */
    long scanAndReset(MemorySegment segment, WrittenRangeSink sink);

    /** @return true if only written pages are reported; false if every page is reported on every scan */
    boolean precise();

    /** @return one line for logs and {@code ckpt} output, e.g. why tracking fell back to all pages */
    String description();

    /** Stops tracking every segment and releases kernel resources. */
    @Override
    void close();

    /** Receives written byte ranges. */
    @FunctionalInterface
    interface WrittenRangeSink {
        /**
         * @param byteOffset first byte of the run, from the segment's start, a multiple of the page size
         * @param byteLength length of the run, a positive multiple of the page size
         */
        void written(long byteOffset, long byteLength);
    }
}
