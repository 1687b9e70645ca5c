package dev.lazarus.store.dirty;

import java.util.ArrayList;
import java.util.List;

/** Test sink that records the runs a scan reports, in order. */
public final class RecordingSink implements WrittenPageScanner.WrittenRangeSink {
    /** One reported run. */
    public record Run(long offset, long length) {
    }

    private final List<Run> runs = new ArrayList<>();

    @Override
    public void written(long byteOffset, long byteLength) {
        runs.add(new Run(byteOffset, byteLength));
    }

    /** @return the runs recorded since the last call, and forgets them */
    public List<Run> take() {
        List<Run> taken = List.copyOf(runs);
        runs.clear();
        return taken;
    }
}
