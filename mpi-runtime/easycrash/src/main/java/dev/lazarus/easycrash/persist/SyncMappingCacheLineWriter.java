package dev.lazarus.easycrash.persist;

import java.lang.foreign.MemorySegment;

/**
 * For heaps mapped with {@code ExtendedMapMode.READ_WRITE_SYNC} on a DAX file system: there the JDK's
 * {@link MemorySegment#force()} writes back cache lines (JEP 352) instead of calling msync, and ends with a fence.
 */
public final class SyncMappingCacheLineWriter implements CacheLineWriter {

    @Override
    public void writeBack(MemorySegment segment, long offset, long length) {
        if (length > 0) {
            segment.asSlice(offset, length).force();
        }
    }

    @Override
    public void drain() {
        // force() has already fenced.
    }

    @Override
    public String mechanism() {
        return "MAP_SYNC mapping, MemorySegment.force (JDK cache-line write-back)";
    }
}
