package dev.lazarus.store.incremental;

import dev.lazarus.store.dirty.WrittenPageScanner;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * A precise page scanner whose "written pages" the test sets, standing in for the kernel's tracking in tests of the
 * code around it: the next scan reports exactly {@link #writtenPages}, then forgets them.
 */
final class ScriptedScanner implements WrittenPageScanner {
    final List<MemorySegment> registered = new ArrayList<>();
    final List<long[]> writtenPages = new ArrayList<>();

    @Override
    public void register(MemorySegment segment) {
        registered.add(segment);
    }

    @Override
    public void unregister(MemorySegment segment) {
        registered.removeIf(s -> s.address() == segment.address());
    }

    @Override
    public long scanAndReset(MemorySegment segment, WrittenRangeSink sink) {
        long pages = 0;
        for (long[] run : writtenPages) {
            sink.written(run[0] * 4096, run[1] * 4096);
            pages += run[1];
        }
        writtenPages.clear();
        return pages;
    }

    @Override
    public boolean precise() {
        return true;
    }

    @Override
    public String description() {
        return "scripted";
    }

    @Override
    public void close() {
    }
}
