package dev.lazarus.recovery.selection;

/**
 * The time one persistence operation takes: writing back every cache line of the critical objects (paper §5.2, §5.3).
 *
 * <p>The estimate assumes every line is in the cache and dirty, which overestimates; the paper accepts that because it
 * only makes the real overhead smaller than the budget. Flushes that invalidate the line (CLFLUSH, CLFLUSHOPT) make the
 * next access miss, so their cost is doubled, as §5.3 does; CLWB keeps the line and is counted once.
 *
 * @param secondsPerLine measured cost of writing back one cache line, in seconds
 * @param lines          number of cache lines the critical objects span
 * @param invalidating   whether the flush instruction invalidates lines (CLFLUSH, CLFLUSHOPT)
 */
public record PersistenceCost(double secondsPerLine, long lines, boolean invalidating) {
    /** Cache-line size of the x86 machines EasyCrash targets. */
    public static final int CACHE_LINE_BYTES = 64;
    /** §5.3's allowance for re-loading lines an invalidating flush evicted. */
    public static final double INVALIDATION_FACTOR = 2.0;

    /**
     * Validates the measured cost.
     *
     * @throws IllegalArgumentException for a cost that is not positive and finite, or fewer than one line
     */
    public PersistenceCost {
        if (!(secondsPerLine > 0.0 && Double.isFinite(secondsPerLine))) {
            throw new IllegalArgumentException("secondsPerLine must be positive and finite: secondsPerLine="
                    + secondsPerLine);
        }
        if (lines < 1) {
            throw new IllegalArgumentException("lines must be >= 1: lines=" + lines);
        }
    }

    /**
     * The cost for critical objects of {@code bytes} in total, rounded up to whole {@value #CACHE_LINE_BYTES}-byte
     * lines.
     *
     * @throws IllegalArgumentException for fewer than one byte or a bad per-line cost
     */
    public static PersistenceCost forBytes(double secondsPerLine, long bytes, boolean invalidating) {
        if (bytes < 1) {
            throw new IllegalArgumentException("bytes must be >= 1: bytes=" + bytes);
        }
        return new PersistenceCost(secondsPerLine, (bytes + CACHE_LINE_BYTES - 1) / CACHE_LINE_BYTES, invalidating);
    }

    /** Seconds per persistence operation: per-line cost &times; lines, doubled if the flush invalidates. */
    public double secondsPerOperation() {
        return secondsPerLine * lines * (invalidating ? INVALIDATION_FACTOR : 1.0);
    }
}
