package dev.lazarus.npb.is;

import dev.lazarus.easycrash.IntArray;

import java.util.Arrays;

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

    /** Adds each of {@code keys[0 .. count)} to the count of its value, {@code counts[key]}. */
    static void countValues(IntArray keys, int count, int[] counts) {
        for (int i = 0; i < count; i++) {
            counts[keys.get(i)]++;
        }
    }

    /** Replaces {@code counts[0 .. range)} by their running totals: {@code counts[v]} becomes the sum up to {@code v}. */
    static void cumulate(int[] counts, int range) {
        int total = 0;
        for (int v = 0; v < range; v++) {
            total += counts[v];
            counts[v] = total;
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
     *
     * <p>The slots are counted in {@code scratch} (at least {@code buckets} elements), and {@code next} gets their
     * final values in one piece: every key reads and writes its bucket's slot, and through a heap object that
     * read-modify-write is a dependent random access with its own index check and address arithmetic (IsLoopsBench's
     * groupByBucket ran 2.4 times the array loop on the heap).
     */
    static void groupByBucket(IntArray keys, int count, int shift, IntArray next, int buckets, int[] scratch,
                              IntArray grouped) {
        next.copyTo(0, scratch, 0, buckets);
        for (int i = 0; i < count; i++) {
            int key = keys.get(i);
            int slot = scratch[key >> shift]++;
            grouped.set(slot, key);
        }
        next.copyFrom(scratch, 0, 0, buckets);
    }

    /**
     * Cumulative counts of the key values: afterwards {@code counts[v - minKey]} is the number of keys in
     * {@code keys[0 .. count)} that are at most {@code v}, for the {@code range} values from {@code minKey}.
     *
     * <p>The counting runs in {@code scratch} (at least {@code counts.length()} elements), which is then copied into
     * {@code counts} in one piece: its increments land at random places, and a random access into a heap object
     * cost a sign extension, an address add and a second index check per increment that an array's did not
     * (IsLoopsBench's rankKeys ran 1.6 to 2.8 times the array loop on the heap, before the objects' index check let
     * C2 fold the address, MappedDoubleArray.MAX_CHECKED_LENGTH). The running total stays in a
     * register instead of being re-read.
     */
    static void cumulativeCounts(IntArray keys, int count, int minKey, IntArray counts, int range, int[] scratch) {
        Arrays.fill(scratch, 0, range, 0);
        for (int i = 0; i < count; i++) {
            scratch[keys.get(i) - minKey]++;
        }
        cumulate(scratch, range);
        counts.copyFrom(scratch, 0, 0, range);
    }
}
