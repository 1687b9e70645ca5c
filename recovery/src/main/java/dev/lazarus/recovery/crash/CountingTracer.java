package dev.lazarus.recovery.crash;

import dev.lazarus.easycrash.trace.AccessTracer;

/**
 * The first, cheap run of a campaign: counts traced accesses so crash points can be drawn over the whole run
 * ({@code [0, accessCount())}) or over the main loop only ({@code [mainLoopStart(), accessCount())}).
 */
public final class CountingTracer implements AccessTracer {
    private long accesses;
    private long mainLoopStart = -1;
    private long persists;
    private int iterations;

    @Override
    public void load(long address, int bytes) {
        accesses++;
    }

    @Override
    public void store(long address, int bytes) {
        accesses++;
    }

    @Override
    public void persist(long address, long length) {
        persists++;
    }

    @Override
    public void regionEnd(int region, int iteration) {
        // region boundaries do not move crash points
    }

    @Override
    public void iterationBegin(int iteration) {
        if (mainLoopStart < 0) {
            mainLoopStart = accesses;
        }
        iterations++;
    }

    /** Traced loads and stores of the run. */
    public long accessCount() {
        return accesses;
    }

    /** Accesses before the first main-loop iteration began, or -1 if none began. */
    public long mainLoopStart() {
        return mainLoopStart;
    }

    /** Persistence operations traced. */
    public long persistCount() {
        return persists;
    }

    /** Main-loop iterations begun. */
    public int iterations() {
        return iterations;
    }
}
