package dev.lazarus.store.dirty;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The fallback pre-filter: every page of every registered segment counts as written on every scan, so every block is
 * hashed. Always correct, never precise.
 */
public final class AllPagesScanner implements WrittenPageScanner {
    private final List<MemorySegment> segments = new ArrayList<>();
    private final String description;

    /** @param description why tracking is not precise, for logs and {@code ckpt} output */
    public AllPagesScanner(String description) {
        this.description = description;
    }

    @Override
    public void register(MemorySegment segment) {
        if (!segment.isNative()) {
            throw new IllegalArgumentException("page tracking needs native memory: segment=" + segment);
        }
        segments.add(segment);
    }

    @Override
    public void unregister(MemorySegment segment) {
        segments.removeIf(s -> s.address() == segment.address() && s.byteSize() == segment.byteSize());
    }

    @Override
    public long scanAndReset(MemorySegment segment, WrittenRangeSink sink) {
        for (MemorySegment s : segments) {
            if (s.address() == segment.address() && s.byteSize() == segment.byteSize()) {
                if (segment.byteSize() > 0) {
                    sink.written(0, segment.byteSize());
                }
                return (segment.byteSize() + 4095) / 4096;
            }
        }
        throw new IllegalArgumentException("segment not tracked: address=0x" + Long.toHexString(segment.address())
                + " bytes=" + segment.byteSize());
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
        segments.clear();
    }
}
