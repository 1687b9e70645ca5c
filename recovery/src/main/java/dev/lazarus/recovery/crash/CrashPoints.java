package dev.lazarus.recovery.crash;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Where a run crashes: sorted, distinct access indices. Crash point {@code c} means the crash happens after exactly
 * {@code c} traced accesses (loads and stores) completed, just before access {@code c} (0-based) executes; so the
 * points of a run with {@code total} accesses lie in {@code [0, total)}.
 *
 * <p>The paper stops the application at a uniformly random instruction; we draw uniformly among traced accesses,
 * which are the only points where the modeled NVM state can change.
 */
public final class CrashPoints {
    private final long[] points;

    private CrashPoints(long[] points) {
        this.points = points;
    }

    /** {@code count} distinct points drawn uniformly from {@code [0, totalAccesses)} (a counting run's total). */
    public static CrashPoints uniform(long totalAccesses, int count, long seed) {
        return uniform(0, totalAccesses, count, seed);
    }

    /**
     * {@code count} distinct points drawn uniformly from {@code [from, to)}, e.g. only the main loop's accesses.
     * The same arguments give the same points on every JVM ({@link SplittableRandom}'s algorithm is specified).
     *
     * @throws IllegalArgumentException if the range is empty or holds fewer than {@code count} points
     */
    public static CrashPoints uniform(long from, long to, int count, long seed) {
        if (from < 0 || to < from || count < 0 || to - from < count) {
            throw new IllegalArgumentException("crash points: cannot draw count=" + count
                    + " distinct accesses from [from=" + from + ", to=" + to + ")");
        }
        // Floyd's algorithm: count draws, each a uniformly random subset member, no rejection loop.
        SplittableRandom random = new SplittableRandom(seed);
        long size = to - from;
        Set<Long> chosen = new HashSet<>(Math.max(16, count * 2));
        for (long j = size - count; j < size; j++) {
            long pick = random.nextLong(j + 1);
            if (!chosen.add(pick)) {
                chosen.add(j);
            }
        }
        long[] points = new long[count];
        int i = 0;
        for (long pick : chosen) {
            points[i++] = from + pick;
        }
        Arrays.sort(points);
        return new CrashPoints(points);
    }

    /**
     * Given points, for tests and replays of one crash.
     *
     * @throws IllegalArgumentException unless they are non-negative, sorted and distinct
     */
    public static CrashPoints of(long... points) {
        for (int i = 0; i < points.length; i++) {
            if (points[i] < 0 || (i > 0 && points[i] <= points[i - 1])) {
                throw new IllegalArgumentException("crash points must be non-negative, sorted and distinct: point["
                        + i + "]=" + points[i] + (i > 0 ? " after " + points[i - 1] : ""));
            }
        }
        return new CrashPoints(points.clone());
    }

    public int size() {
        return points.length;
    }

    /** The {@code index}-th point, ascending. */
    public long get(int index) {
        return points[index];
    }

    public long[] toArray() {
        return points.clone();
    }

    @Override
    public String toString() {
        return "CrashPoints" + Arrays.toString(points);
    }
}
