package dev.lazarus.npb.is;

import dev.lazarus.bench.BenchObjects;
import dev.lazarus.easycrash.IntArray;
import dev.lazarus.easycrash.ObjectRole;
import dev.lazarus.npb.common.NpbRandom;
import dev.lazarus.npb.common.ProblemClass;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * IS's counting and ranking loops ({@link IsOps}, the kernel's own code) on NPB's class S keys as one rank has them:
 * 65,536 keys below 2048, in 512 buckets. {@code objects} chooses the implementation of the data objects: a
 * persistent heap ({@code mapped}) or plain Java arrays ({@code plain}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class IsLoopsBench {
    private static final IsParameters CLASS_S = IsParameters.of(ProblemClass.S);

    @Param({BenchObjects.MAPPED, BenchObjects.PLAIN})
    public String objects;

    private BenchObjects store;
    private int numKeys;
    private int maxKey;
    private int numBuckets;
    private int shift;
    /** The generated keys ({@code keyArray}). */
    private IntArray keys;
    /** Keys per bucket ({@code bucketSize}, a plain array in the kernel too). */
    private int[] sizes;
    /** Next free slot per bucket ({@code bucketPtrs}). */
    private IntArray next;
    /** The keys grouped by bucket ({@code keyBuff1}); on one rank also the keys the exchange leaves to rank. */
    private IntArray grouped;
    /** Counts, then running totals, per key value ({@code keyBuff1} after the exchange). */
    private IntArray counts;
    private int[] countScratch;
    private int[] bucketScratch;
    /** Keys per value, then their running totals (the kernel's value counts on one rank). */
    private int[] valueCounts;

    @Setup(Level.Trial)
    public void setUp() {
        numKeys = CLASS_S.totalKeys();
        maxKey = CLASS_S.maxKey();
        numBuckets = CLASS_S.numBuckets();
        shift = CLASS_S.maxKeyLog2() - CLASS_S.numBucketsLog2();
        store = BenchObjects.open(objects, 4L * numKeys, 4L * numBuckets, 4L * numKeys, 4L * maxKey);
        keys = store.ints("keyArray", numKeys, ObjectRole.CANDIDATE);
        next = store.ints("bucketPtrs", numBuckets, ObjectRole.CANDIDATE);
        grouped = store.ints("keyBuff1", numKeys, ObjectRole.CANDIDATE);
        counts = store.ints("counts", maxKey, ObjectRole.CANDIDATE);
        countScratch = new int[maxKey];
        bucketScratch = new int[numBuckets];
        valueCounts = new int[maxKey];
        IsKernel.createSeq(new NpbRandom(IsKernel.SEED), maxKey, numKeys, keys::set);
        sizes = new int[numBuckets];
        IsOps.countBuckets(keys, numKeys, shift, sizes);
        IsOps.bucketStarts(sizes, next, numBuckets);
        IsOps.groupByBucket(keys, numKeys, shift, next, numBuckets, bucketScratch, grouped);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        store.close();
    }

    /** Keys per bucket ({@link IsOps#countBuckets}, after the kernel's reset); returns one count. */
    @Benchmark
    public int countBuckets() {
        Arrays.fill(sizes, 0);
        IsOps.countBuckets(keys, numKeys, shift, sizes);
        return sizes[numBuckets - 1];
    }

    /** The keys grouped by bucket ({@link IsOps#bucketStarts}, {@link IsOps#groupByBucket}); returns one key. */
    @Benchmark
    public int groupByBucket() {
        IsOps.bucketStarts(sizes, next, numBuckets);
        IsOps.groupByBucket(keys, numKeys, shift, next, numBuckets, bucketScratch, grouped);
        return grouped.get(numKeys - 1);
    }

    /**
     * One rank's iteration by value counts ({@link IsOps#countValues}, {@link IsOps#cumulate}, then the copy into
     * {@code keyBuff1}); returns the last running total.
     */
    @Benchmark
    public int rankByValueCounts() {
        Arrays.fill(valueCounts, 0);
        IsOps.countValues(keys, numKeys, valueCounts);
        IsOps.cumulate(valueCounts, maxKey);
        counts.copyFrom(valueCounts, 0, 0, maxKey);
        return counts.get(maxKey - 1);
    }

    /** The keys' cumulative counts ({@link IsOps#cumulativeCounts}); returns the last running total. */
    @Benchmark
    public int rankKeys() {
        IsOps.cumulativeCounts(grouped, numKeys, 0, counts, maxKey, countScratch);
        return counts.get(maxKey - 1);
    }
}
