package dev.lazarus.npb.is;

import dev.lazarus.easycrash.IntArray;

/**
 * IS's key counting and ranking loops, on the data objects they work on: {@link IsKernel} calls them, and so do the
 * JMH benchmarks of the loops, which therefore time the kernel's own code on either implementation of the objects
 * (persistent heap or plain arrays).
 *
 * <p>The loops are shaped for the JIT: objects and bounds arrive as parameters, and each loop's sequential accesses
 * use its own index variable as the element index (on the persistent heap the JIT hoists the bounds checks of such
 * accesses out of the loop, but not those of an index computed as {@code base + i}).
 */
final class IsOps {
    private IsOps() {
    }

    /** Adds each of {@code keys[0 .. count)} to the size of its bucket, {@code sizes[key >> shift]}. */
    static void countBuckets(IntArray keys, int count, int shift, int[] sizes) {
        for (int i = 0; i < count; i++) {
            sizes[keys.get(i) >> shift]++;
        }
    }

    /** Sets {@code starts[b]} to the first slot of bucket {@code b}: the sum of {@code sizes[0 .. b)}. */
    static void bucketStarts(int[] sizes, IntArray starts, int buckets) {
        int next = 0;
        for (int b = 0; b < buckets; b++) {
            starts.set(b, next);
            next += sizes[b];
        }
    }

    /**
     * Stores each of {@code keys[0 .. count)} in the next free slot of its bucket in {@code grouped}, keeping their
     * order within a bucket; {@code next[b]} is the next free slot of bucket {@code b} and ends at the bucket's end.
     */
    static void groupByBucket(IntArray keys, int count, int shift, IntArray next, IntArray grouped) {
        for (int i = 0; i < count; i++) {
            int key = keys.get(i);
            int bucket = key >> shift;
            int slot = next.get(bucket);
            next.set(bucket, slot + 1);
            grouped.set(slot, key);
        }
    }

    /**
     * Counts each key value: afterwards {@code counts[v - minKey]} is the number of keys in {@code keys[0 .. count)}
     * equal to {@code v}, for the {@code range} values from {@code minKey}.
     */
    static void countKeyValues(IntArray keys, int count, int minKey, IntArray counts, int range) {
        for (int v = 0; v < range; v++) {
            counts.set(v, 0);
        }
        for (int i = 0; i < count; i++) {
            int slot = keys.get(i) - minKey;
            counts.set(slot, counts.get(slot) + 1);
        }
    }

    /** Turns {@code counts[0 .. range)} into running totals, so each entry counts the keys up to its value. */
    static void accumulate(IntArray counts, int range) {
        // The running total stays in a register instead of being re-read from the object.
        int total = 0;
        for (int v = 0; v < range; v++) {
            total += counts.get(v);
            counts.set(v, total);
        }
    }
}
