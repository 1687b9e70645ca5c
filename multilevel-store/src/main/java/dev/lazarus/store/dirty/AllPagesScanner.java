package dev.lazarus.store.dirty;

import java.lang.foreign.MemorySegment;

/**
 * The fallback when writes cannot be tracked: every scan reports each tracked segment whole, as one run, so block
 * hashing alone decides what changed. Always correct, never precise; works on any native page-aligned memory.
 */
public final class AllPagesScanner implements WrittenPageScanner {
    private final TrackedSegments tracked = new TrackedSegments(PageSize.system());
    private final String description;

    /** @param description the line {@link #description()} returns, saying why pages are not tracked */
    public AllPagesScanner(String description) {
        this.description = description;
    }

    @Override
    public void register(MemorySegment segment) {
        tracked.checkTrackable(segment);
        tracked.add(segment);
    }

    @Override
    public void unregister(MemorySegment segment) {
        int index = tracked.indexOf(segment);
        if (index >= 0) {
            tracked.remove(index);
        }
    }

    @Override
    public long scanAndReset(MemorySegment segment, WrittenRangeSink sink) {
        long length = tracked.length(tracked.require(segment));
        sink.written(0, length);
        return length / tracked.pageSize();
    }

    @Override
    public boolean precise() {
        return false;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public void close() {
        while (tracked.size() > 0) {
            tracked.remove(tracked.size() - 1);
        }
    }
}
