package dev.lazarus.easycrash.persist;

import java.lang.foreign.MemorySegment;

/** Writes cache lines back to the memory behind a mapping: the persistence operation. */
public interface CacheLineWriter {

    /** Starts writing back every cache line of {@code [offset, offset + length)} of {@code segment}. */
    void writeBack(MemorySegment segment, long offset, long length);

    /** Waits until every write-back started so far has reached the persistence domain (SFENCE). */
    void drain();

    /** {@link #writeBack} then {@link #drain}: a whole persistence operation on one range. */
    default void persist(MemorySegment segment, long offset, long length) {
        writeBack(segment, offset, length);
        drain();
    }

    /** What it uses, for logs and reports, e.g. {@code libpmem pmem_flush (clwb)}. */
    String mechanism();
}
