package dev.lazarus.easycrash.persist;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

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

    /** A few lines by the JDK's write-back directly, which {@code force} would reach through the segment's session. */
    @Override
    public void persist(MemorySegment segment, long offset, long length) {
        if (length > 0 && JdkWriteBack.takes(length)) {
            Objects.checkFromIndexSize(offset, length, segment.byteSize());
            JdkWriteBack.persist(segment.address() + offset, length);
        } else {
            CacheLineWriter.super.persist(segment, offset, length);
        }
    }

    @Override
    public String mechanism() {
        return "MAP_SYNC mapping, MemorySegment.force (JDK cache-line write-back)";
    }
}
