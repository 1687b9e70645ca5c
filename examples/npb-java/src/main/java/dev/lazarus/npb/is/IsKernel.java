package dev.lazarus.npb.is;

import dev.lazarus.easycrash.EasyCrash;
import dev.lazarus.easycrash.IntArray;
import dev.lazarus.easycrash.ObjectRole;
import dev.lazarus.easycrash.Recomputable;
import dev.lazarus.easycrash.RecomputableApplication;
import dev.lazarus.easycrash.RecomputingRun;
import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.ElementType;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.npb.common.KernelOptions;
import dev.lazarus.npb.common.NpbRandom;
import dev.lazarus.npb.common.NpbReport;
import dev.lazarus.npb.common.ProblemClass;
import dev.lazarus.verification.Verdict;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import static dev.lazarus.easycrash.Recomputable.pageAligned;

/**
 * NPB IS (Integer Sort), after NPB 3.4 {@code is.c}: ranks {@code TOTAL_KEYS} integer keys ten times, checks the
 * ranks of five test keys in every iteration (partial verification) and, after the timed loop, that the keys end up
 * globally sorted (full verification).
 *
 * <p><b>Two ways to rank.</b> On fewer ranks than {@code TOTAL_KEYS / MAX_KEY} (16 in classes W, A and B, 32 in S)
 * each iteration counts this rank's keys per value, sums the counts over all ranks with one {@code allreduce} of
 * {@code MAX_KEY} integers and turns them into the ranks of all key values, as NPB's OpenMP and Java versions do:
 * {@code MAX_KEY} integers per rank cross the network instead of the {@code TOTAL_KEYS / ranks} keys of NPB's MPI bucket
 * sort, and no key is moved (class A on 2 ranks: 2 MB instead of 16 MB per rank and iteration). From 16 ranks on the
 * keys are the smaller message, and the iterations run NPB's MPI bucket sort, whose buckets are redistributed over the
 * ranks with {@code alltoall}/{@code alltoallv}. The full verification always sorts the keys by the bucket sort;
 * after value-count iterations it also checks every rank the last iteration computed against the bucket sort's.
 *
 * <p>NPB's checks pass for any key set that sorts, so the acceptance check also compares a fingerprint of the sorted
 * keys with one of the benchmark's keys, regenerated at verification ({@link KeySetFingerprint}): the verdict depends
 * on every key. Runs on a power-of-two number of ranks, up to 128 for class S and 1024 otherwise.
 *
 * <p>Named data objects (NPB's names in camel case): {@code keyArray} ({@code key_array}, this rank's keys),
 * {@code keyBuff1} ({@code key_buff1}: the ranks of all key values after value counts; in the bucket sort the keys
 * grouped by bucket, then the populations and ranks of this rank's values), {@code keyBuff2} ({@code key_buff2}: the
 * keys this rank received) and {@code bucketPtrs} ({@code bucket_ptrs}), which value-count iterations leave to the
 * full verification,
 * {@code passedVerification} and {@code failedVerification} (NPB's counters, one slot per iteration), and the small
 * per-iteration arrays {@code bucketSize}, {@code bucketSizeTotals}, {@code processBucketDistribPtr1},
 * {@code processBucketDistribPtr2}, {@code sendCount}, {@code recvCount}, {@code sendDispl}, {@code recvDispl}.
 *
 * <p>Regions of the timed main loop, in order, once per iteration (NPB's {@code rank()} split at its phases, the same
 * for both ways to rank): {@code alterKeys()} (plant the iteration's two keys), {@code countKeys()} (count local keys
 * per value, or count and group them by bucket), {@code exchange()} (the counts' allreduce, or the bucket sizes'
 * allreduce, the plan of which buckets go to which rank and the keys' alltoallv), {@code rankKeys()} (key populations
 * and ranks) and {@code partialVerify()}.
 *
 * <p><b>EasyCrash.</b> The paper's candidates {@code keyArray, keyBuff1, keyBuff2, bucketPtrs} and the partial
 * verification counters are CANDIDATE objects in the rank's persistent heap; the small per-iteration arrays stay
 * plain Java arrays (rebuilt from scratch in every iteration). What a restart at iteration {@code k} needs:
 * <ul>
 *   <li>{@code keyArray}: the only state carried from one iteration to the next. Every other object is recomputed
 *   from it before it is read, so an iteration is a function of the generated keys and the iteration number alone.
 *   {@link #alterKeys} makes that literally true: it sets all twenty planted positions of rank 0 (the keys of
 *   iterations {@code <= k}, the generated values for later ones), because the runtime resumes every rank at the
 *   <em>smallest</em> bookmark and rank 0 may already have planted iteration {@code k + 1}'s keys. Every value ever
 *   stored in {@code keyArray} is a valid key, so even stale NVM lines cannot send an index out of bounds (NPB's C
 *   code segfaults there, paper §4); a wrong key fails the key fingerprint (and, if it changes a test key's rank,
 *   partial verification) and the run rolls back.</li>
 *   <li>{@code passedVerification[it]}, {@code failedVerification[it]}: the partial verification of iteration
 *   {@code it}, stored (not added) at the end of {@code partialVerify}, so re-running the bookmarked iteration
 *   overwrites its own slot instead of counting twice, and iterations {@code 1..k-1} still count after a restart.</li>
 * </ul>
 * The full verification sorts into a scratch array, not into {@code keyArray} as NPB does, so that a crash while
 * verifying leaves the keys intact for the restart (which re-runs the last bookmarked iteration).
 */
public final class IsKernel implements RecomputableApplication, Recomputable {
    /** Timed iterations, as in NPB. */
    static final int MAX_ITERATIONS = 10;
    private static final String NAME = "npb.IS";
    private static final List<String> REGIONS = List.of("alterKeys", "countKeys", "exchange", "rankKeys",
            "partialVerify");
    private static final int TEST_ARRAY_SIZE = IsParameters.TEST_ARRAY_SIZE;
    /** NPB's seed of the key sequence. */
    static final double SEED = 314159265.0;
    private static final int FULL_VERIFY_TAG = 1000;

    /** This rank's keys. */
    IntArray keyArray;
    /** Keys grouped by bucket before the exchange; key populations and then cumulative ranks after it. */
    IntArray keyBuff1;
    /** Keys received from all ranks in the exchange. */
    IntArray keyBuff2;
    /** Next free slot per bucket while grouping local keys. */
    IntArray bucketPtrs;
    /** Partial verifications passed on this rank, per iteration (slot 0 unused). */
    IntArray passedVerification;
    /** Partial verifications failed on this rank, per iteration (slot 0 unused). */
    IntArray failedVerification;
    /** Where rankKeys counts before copying into keyBuff1 ({@link IsOps#cumulativeCounts}). */
    private int[] countScratch;
    /** Whether the iterations rank by counts per key value instead of the bucket sort (class comment). */
    private boolean byValueCounts;
    /** This rank's keys per value, then the test keys it holds ({@code MAX_KEY + TEST_ARRAY_SIZE}; by value counts). */
    private int[] localCounts;
    /** All ranks' keys per value and the test keys, then the values' ranks (the same array as localCounts on one rank). */
    private int[] globalCounts;
    /** Where groupByBucket counts the slots before copying them into bucketPtrs ({@link IsOps#groupByBucket}). */
    private int[] bucketScratch;
    /** Local keys per bucket; the last five entries carry the test keys to the allreduce. */
    int[] bucketSize;
    /** Global keys per bucket, and the five test keys. */
    int[] bucketSizeTotals;
    /** First bucket of each rank after redistribution. */
    int[] processBucketDistribPtr1;
    /** Last bucket of each rank after redistribution. */
    int[] processBucketDistribPtr2;
    /** Keys this rank sends to each rank. */
    int[] sendCount;
    /** Keys this rank receives from each rank. */
    int[] recvCount;
    /** Offsets in {@link #keyBuff1} of the keys for each rank. */
    int[] sendDispl;
    /** Offsets in {@link #keyBuff2} of the keys from each rank. */
    int[] recvDispl;
    /** Rank 0's generated keys at the positions {@link #alterKeys} plants ({@code 0 ..  2 * MAX_ITERATIONS}). */
    private int[] generatedKeys;

    private IsParameters params;
    private Comm comm;
    private int myRank;
    private int commSize;
    private int numKeys;
    private int numBuckets;
    private int shift;
    private int sizeOfBuffers;
    private int minKeyVal;
    private int maxKeyVal;
    /** Keys on lower ranks than this one after redistribution ({@code m} in NPB). */
    private int totalLesserKeys;
    /** Keys on this rank after redistribution ({@code j} in NPB). */
    int totalLocalKeys;
    /** The class's parameters unless these are set (tests). */
    private final IsParameters fixedParameters;
    private boolean quiet;
    private boolean printIterations;
    /** Where a run writes (tests redirect it). */
    private PrintStream out = System.out;
    /**
     * Where this kernel writes now: nowhere until a run {@link #announce announces} itself, since crash-test campaigns
     * run it thousands of times and a failed partial verification is in the verdict.
     */
    private PrintStream log = new PrintStream(OutputStream.nullOutputStream());

    /** Creates a kernel; {@link #run} sets it up for the chosen class. */
    public IsKernel() {
        this(null);
    }

    /** Creates a kernel that runs with {@code parameters} whatever the class argument says (tests). */
    IsKernel(IsParameters parameters) {
        this.fixedParameters = parameters;
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Parses the arguments and sets up the keys' distribution (everything before the persistent heap). */
    @Override
    public Recomputable prepare(Comm world, String[] args) {
        KernelOptions options = KernelOptions.parse(name(), args);
        setup(world, fixedParameters != null ? fixedParameters : IsParameters.of(options.problemClass()));
        this.quiet = options.quiet();
        return this;
    }

    /** A run, not a campaign: the report, failed partial verifications and progress lines are written. */
    @Override
    public void announce() {
        log = out;
        boolean progress = myRank == 0 && !quiet;
        if (progress) {
            printHeader();
        }
        printIterations = progress && params.problemClass() != ProblemClass.S;
    }

    @Override
    public void report(RecomputingRun.Outcome outcome, double wallSeconds) {
        if (myRank != 0) {
            return;
        }
        // As NPB's, the time covers the ranking iterations and not the full verification.
        double seconds = outcome.seconds();
        double mops = (double) MAX_ITERATIONS * params.totalKeys() / seconds / 1e6;
        new NpbReport("IS", params.problemClass(), Integer.toString(params.totalKeys()), MAX_ITERATIONS,
                seconds, commSize, mops, "keys ranked", outcome.verdict(), comm.backend()).print(log);
        log.printf(Locale.ROOT, " Full verification took %.2f s (not timed, as in NPB)%n",
                outcome.verificationSeconds());
    }

    /**
     * Checks the rank count, works out the sizes and allocates the small per-iteration arrays (the big objects
     * live in the persistent heap, see {@link #attach}).
     *
     * @throws IllegalArgumentException if the rank count is not a power of two up to the class's maximum
     */
    void setup(Comm world, IsParameters parameters) {
        int size = world.size();
        if (Integer.bitCount(size) != 1 || size > parameters.maxProcs()) {
            throw new IllegalArgumentException("npb.IS: class " + parameters.problemClass()
                    + " runs on a power-of-two number of ranks from 1 to " + parameters.maxProcs()
                    + " (got " + size + ")");
        }
        this.params = parameters;
        this.comm = world;
        this.myRank = world.rank();
        this.commSize = size;
        this.numKeys = parameters.totalKeys() / size;
        this.numBuckets = parameters.numBuckets();
        this.shift = parameters.maxKeyLog2() - parameters.numBucketsLog2();
        // NPB's buffer sizes: received keys can exceed the average numKeys since buckets are not split.
        this.sizeOfBuffers = size < 256 ? 3 * numKeys / 2 : size < 512 ? 5 * numKeys / 2 : 4 * numKeys;
        this.byValueCounts = byValueCounts(parameters, size);
        if (byValueCounts) {
            localCounts = new int[parameters.maxKey() + TEST_ARRAY_SIZE];
            globalCounts = size == 1 ? localCounts : new int[parameters.maxKey() + TEST_ARRAY_SIZE];
        }
        bucketSize = new int[numBuckets + TEST_ARRAY_SIZE];
        bucketSizeTotals = new int[numBuckets + TEST_ARRAY_SIZE];
        processBucketDistribPtr1 = new int[numBuckets + TEST_ARRAY_SIZE];
        processBucketDistribPtr2 = new int[numBuckets + TEST_ARRAY_SIZE];
        sendCount = new int[size];
        recvCount = new int[size];
        sendDispl = new int[size];
        recvDispl = new int[size];
    }

    /**
     * Whether {@code ranks} ranks rank the keys by counts per value: while the counts ({@code MAX_KEY} integers per
     * rank) are a smaller message than a rank's keys.
     */
    static boolean byValueCounts(IsParameters parameters, int ranks) {
        return ranks < parameters.totalKeys() / parameters.maxKey();
    }

    /** Redirects the report and per-iteration messages of a run (tests). */
    void log(PrintStream stream) {
        this.out = stream;
    }

    // ---- Recomputable ---------------------------------------------------------------------------------------------

    @Override
    public String application() {
        return NAME;
    }

    @Override
    public String signature() {
        return NAME + " --class " + params.problemClass();
    }

    @Override
    public List<String> regions() {
        return REGIONS;
    }

    @Override
    public long heapBytes() {
        return 2 * pageAligned(4L * sizeOfBuffers) + pageAligned(4L * keyBuff1Length())
                + pageAligned(4L * numBuckets) + 2 * pageAligned(4L * (MAX_ITERATIONS + 1));
    }


    /** key_buff1 also holds one counter per key value of this rank's key range, which is at most MAX_KEY. */
    private int keyBuff1Length() {
        return Math.max(sizeOfBuffers, params.maxKey());
    }

    @Override
    public void attach(EasyCrash easyCrash) {
        keyArray = easyCrash.ints("keyArray", sizeOfBuffers, ObjectRole.CANDIDATE);
        keyBuff1 = easyCrash.ints("keyBuff1", keyBuff1Length(), ObjectRole.CANDIDATE);
        countScratch = new int[keyBuff1Length()];
        bucketScratch = new int[numBuckets];
        keyBuff2 = easyCrash.ints("keyBuff2", sizeOfBuffers, ObjectRole.CANDIDATE);
        bucketPtrs = easyCrash.ints("bucketPtrs", numBuckets, ObjectRole.CANDIDATE);
        passedVerification = easyCrash.ints("passedVerification", MAX_ITERATIONS + 1, ObjectRole.CANDIDATE);
        failedVerification = easyCrash.ints("failedVerification", MAX_ITERATIONS + 1, ObjectRole.CANDIDATE);
    }

    /**
     * Every start: rank 0's generated values at the planted positions (cheap to regenerate). A fresh start also
     * generates the keys and runs NPB's untimed first iteration, then clears the verification counters.
     */
    @Override
    public void initialize(boolean fresh) {
        double seed = mySeed();
        generatedKeys = new int[2 * MAX_ITERATIONS + 1];
        createSeq(new NpbRandom(seed), params.maxKey(), generatedKeys.length, (i, key) -> generatedKeys[i] = key);
        if (fresh) {
            IntArray keys = keyArray;
            createSeq(new NpbRandom(seed), params.maxKey(), numKeys, keys::set);
            // One untimed iteration first, as NPB does, so that code and data pages are warm.
            rankIteration(1);
            passedVerification.fill(0);
            failedVerification.fill(0);
        }
        if (printIterations) {
            log.printf(Locale.ROOT, "%n   iteration%n");
        }
    }

    @Override
    public int iterations() {
        return MAX_ITERATIONS;
    }

    /** None past the end: each iteration is verified against its own test keys, which only exist for 1 to 10. */
    @Override
    public int maxIterations() {
        return MAX_ITERATIONS;
    }

    @Override
    public void iterate(int iteration, EasyCrash easyCrash) {
        if (printIterations) {
            log.printf(Locale.ROOT, "        %d%n", iteration);
        }
        alterKeys(iteration);
        easyCrash.endRegion(0, iteration);
        countKeys();
        easyCrash.endRegion(1, iteration);
        exchange();
        easyCrash.endRegion(2, iteration);
        rankKeys();
        easyCrash.endRegion(3, iteration);
        partialVerify(iteration);
        easyCrash.endRegion(4, iteration);
    }

    /**
     * NPB's {@code full_verify}, the partial verification tally of all iterations, and a comparison of the sorted
     * keys' fingerprint with the benchmark's key set (collective): NPB's checks pass for any keys that sort, so
     * without it a key changed in NVM would be sorted and accepted. After iterations that ranked by value counts, the
     * keys are first sorted by the bucket sort, and every rank of the last iteration is compared with the sort's.
     */
    @Override
    public Verdict verify() {
        int rankMismatches = 0;
        if (byValueCounts) {
            int[] ranked = new int[params.maxKey()];
            keyBuff1.copyTo(0, ranked, 0, ranked.length);
            bucketLocalKeys();
            reduceBucketSizes();
            planRedistribution();
            exchangeKeys();
            rankReceivedKeys();
            rankMismatches = countRankMismatches(ranked);
        }
        int[] sorted = new int[totalLocalKeys];
        sortLocalKeys(sorted);
        return verify(countOutOfOrder(sorted, totalLocalKeys), rankMismatches,
                KeySetFingerprint.of(sorted, totalLocalKeys), generatedKeySet());
    }

    /**
     * How many values of this rank's bucket range have another cumulative count in {@code ranked} (all ranks' keys
     * at most each value, from the value counts) than the bucket sort gave ({@code keyBuff1} plus the keys on lower
     * ranks).
     */
    private int countRankMismatches(int[] ranked) {
        int mismatches = 0;
        for (int v = minKeyVal; v <= maxKeyVal; v++) {
            if (keyBuff1.get(v - minKeyVal) + totalLesserKeys != ranked[v]) {
                mismatches++;
            }
        }
        return mismatches;
    }

    /**
     * The fingerprint of this rank's share of the keys the last iteration ranks: the generated keys, regenerated
     * here rather than read from the heap (whose copy is what is being checked), with rank 0's twenty planted
     * positions holding the keys that every iteration up to the last has planted.
     */
    KeySetFingerprint generatedKeySet() {
        KeySetFingerprint expected = new KeySetFingerprint();
        int maxKey = params.maxKey();
        int lastPlanted = myRank == 0 ? 2 * MAX_ITERATIONS : 0;
        createSeq(new NpbRandom(mySeed()), maxKey, numKeys,
                (i, key) -> expected.add(i >= 1 && i <= lastPlanted ? plantedKey(i, maxKey) : key));
        return expected;
    }

    /** Where this rank's part of the generated key sequence starts. */
    private double mySeed() {
        return findMySeed(myRank, commSize, 4L * params.totalKeys(), SEED, NpbRandom.A);
    }

    // ---- the main loop --------------------------------------------------------------------------------------------

    /** One whole NPB {@code rank(iteration)}: the regions of the main loop in order (the untimed warm-up). */
    private void rankIteration(int iteration) {
        alterKeys(iteration);
        countKeys();
        exchange();
        rankKeys();
        partialVerify(iteration);
    }

    /**
     * NPB's {@code find_my_seed}: the generator state where this rank's part of the key sequence starts. Every key
     * takes four numbers, so rank {@code r} starts {@code r * 4 * numKeys} numbers into the sequence.
     */
    static double findMySeed(int kn, int np, long nn, double s, double a) {
        long nq = nn / np;
        int mq = 0;
        while (nq > 1) {
            mq++;
            nq /= 2;
        }
        double an = a;
        for (int i = 0; i < mq; i++) {
            an = NpbRandom.multiplyMod46(an, an);
        }
        double t1 = s;
        double t2 = an;
        long kk = kn;
        while (true) {
            long ik = kk / 2;
            if (2 * ik != kk) {
                t1 = NpbRandom.multiplyMod46(t1, t2);
            }
            if (ik == 0) {
                break;
            }
            t2 = NpbRandom.multiplyMod46(t2, t2);
            kk = ik;
        }
        return t1;
    }

    /** Where {@link #createSeq} puts key {@code index}. */
    @FunctionalInterface
    interface KeyStore {
        void store(int index, int key);
    }

    /**
     * NPB's {@code create_seq}: {@code count} keys from {@code random}, each {@code MAX_KEY/4} times a sum of four
     * uniforms.
     */
    static void createSeq(NpbRandom random, int maxKey, int count, KeyStore keys) {
        int k = maxKey / 4;
        for (int i = 0; i < count; i++) {
            double x = random.randlc(NpbRandom.A);
            x += random.randlc(NpbRandom.A);
            x += random.randlc(NpbRandom.A);
            x += random.randlc(NpbRandom.A);
            keys.store(i, (int) (k * x));
        }
    }

    /**
     * Region 1: plants the keys {@code iteration} and {@code MAX_KEY - iteration}, so every iteration differs. NPB
     * plants one pair per iteration; this sets all ten pairs (the planted values up to {@code iteration}, the
     * generated ones after it), which is the same array in a normal run and the right one after a restart that
     * resumes rank 0 at an iteration it had already passed.
     */
    void alterKeys(int iteration) {
        if (myRank == 0) {
            IntArray keys = keyArray;
            int maxKey = params.maxKey();
            for (int i = 1; i <= MAX_ITERATIONS; i++) {
                boolean planted = i <= iteration;
                keys.set(i, planted ? plantedKey(i, maxKey) : generatedKeys[i]);
                int high = i + MAX_ITERATIONS;
                keys.set(high, planted ? plantedKey(high, maxKey) : generatedKeys[high]);
            }
        }
    }

    /**
     * The key NPB plants at {@code position} (1 to {@code 2 * MAX_ITERATIONS}) of rank 0: iteration {@code i} plants
     * {@code i} at position {@code i} and {@code MAX_KEY - i} at position {@code i + MAX_ITERATIONS}.
     */
    private static int plantedKey(int position, int maxKey) {
        return position <= MAX_ITERATIONS ? position : maxKey - (position - MAX_ITERATIONS);
    }

    /** Region 2: counts this rank's keys per value, or per bucket and groups them by bucket. */
    private void countKeys() {
        if (byValueCounts) {
            countKeyValues();
        } else {
            bucketLocalKeys();
        }
    }

    /** Region 3: sums the counts per value over all ranks, or moves the keys to the ranks that rank their buckets. */
    private void exchange() {
        if (byValueCounts) {
            if (commSize > 1) {
                comm.allreduce(localCounts, 0, globalCounts, 0, localCounts.length, ReduceOp.SUM);
            }
        } else {
            reduceBucketSizes();
            planRedistribution();
            exchangeKeys();
        }
    }

    /** Region 4: the ranks of all key values, or of the values of this rank's buckets. */
    private void rankKeys() {
        if (byValueCounts) {
            rankAllValues();
        } else {
            rankReceivedKeys();
        }
    }

    /** Counts this rank's keys per value into {@link #localCounts}, and stashes the test keys this rank holds. */
    private void countKeyValues() {
        Arrays.fill(localCounts, 0);
        stashTestKeys(localCounts, params.maxKey());
        IsOps.countValues(keyArray, numKeys, localCounts);
    }

    /**
     * Turns the counts over all ranks into cumulative counts, so that {@code keyBuff1[k]} is the number of keys
     * {@code <= k} on all ranks. Rank 0 verifies the test keys against them ({@link #partialVerify}): every rank has
     * the same counts.
     */
    private void rankAllValues() {
        int maxKey = params.maxKey();
        IsOps.cumulate(globalCounts, maxKey);
        keyBuff1.copyFrom(globalCounts, 0, 0, maxKey);
        totalLesserKeys = 0;
        minKeyVal = myRank == 0 ? 0 : 1;
        maxKeyVal = myRank == 0 ? maxKey - 1 : 0;
    }

    /**
     * Stores the test keys this rank holds at {@code counts[at + i]}. A test key lives on one rank only; the allreduce
     * of the counts then hands its value to every rank.
     */
    private void stashTestKeys(int[] counts, int at) {
        int[] testIndexArray = params.testIndexArray();
        for (int i = 0; i < TEST_ARRAY_SIZE; i++) {
            if (testIndexArray[i] / numKeys == myRank) {
                counts[at + i] = keyArray.get(testIndexArray[i] % numKeys);
            }
        }
    }

    /** The value of test key {@code i}, summed over the ranks with this iteration's counts. */
    private int testKey(int i) {
        return byValueCounts ? globalCounts[params.maxKey() + i] : bucketSizeTotals[numBuckets + i];
    }

    /** Counts local keys per bucket, stashes the local test keys, and groups the keys by bucket. */
    private void bucketLocalKeys() {
        Arrays.fill(bucketSize, 0);
        Arrays.fill(bucketSizeTotals, 0);
        Arrays.fill(processBucketDistribPtr1, 0);
        Arrays.fill(processBucketDistribPtr2, 0);
        IntArray keys = keyArray;
        stashTestKeys(bucketSize, numBuckets);
        IsOps.countBuckets(keys, numKeys, shift, bucketSize);
        IsOps.bucketStarts(bucketSize, bucketPtrs, numBuckets);
        IsOps.groupByBucket(keys, numKeys, shift, bucketPtrs, numBuckets, bucketScratch, keyBuff1);
    }

    /** Global bucket sizes (and the test keys) on every rank. */
    private void reduceBucketSizes() {
        comm.allreduce(bucketSize, 0, bucketSizeTotals, 0, numBuckets + TEST_ARRAY_SIZE, ReduceOp.SUM);
    }

    /**
     * Gives consecutive buckets to each rank until it holds at least its share of all keys, and works out
     * how many local keys go to each rank. Ranks left without buckets (possible only when a bucket holds more than
     * one share) get empty ranges.
     */
    private void planRedistribution() {
        int bucketSumAccumulator = 0;
        int localBucketSumAccumulator = 0;
        sendDispl[0] = 0;
        processBucketDistribPtr1[0] = 0;
        int j = 0;
        for (int i = 0; i < numBuckets; i++) {
            bucketSumAccumulator += bucketSizeTotals[i];
            localBucketSumAccumulator += bucketSize[i];
            if (bucketSumAccumulator >= (j + 1) * numKeys) {
                sendCount[j] = localBucketSumAccumulator;
                if (j != 0) {
                    sendDispl[j] = sendDispl[j - 1] + sendCount[j - 1];
                    processBucketDistribPtr1[j] = processBucketDistribPtr2[j - 1] + 1;
                }
                processBucketDistribPtr2[j++] = i;
                localBucketSumAccumulator = 0;
            }
        }
        while (j < commSize) {
            sendCount[j] = 0;
            // NPB leaves these displacements unset; any in-bounds value will do for a zero count.
            sendDispl[j] = 0;
            processBucketDistribPtr1[j] = 1;
            j++;
        }
    }

    /** Tells every rank how many keys to expect, then sends each rank its buckets' keys. */
    private void exchangeKeys() {
        comm.alltoall(sendCount, 0, 1, recvCount, 0);
        recvDispl[0] = 0;
        for (int i = 1; i < commSize; i++) {
            recvDispl[i] = recvDispl[i - 1] + recvCount[i - 1];
        }
        int incoming = recvDispl[commSize - 1] + recvCount[commSize - 1];
        if (incoming > keyBuff2.length()) {
            throw new IllegalStateException("npb.IS: rank " + myRank + " would receive " + incoming
                    + " keys, more than its buffer of " + keyBuff2.length());
        }
        comm.alltoallv(keyBuff1.segment(), 0, sendCount, sendDispl, keyBuff2.segment(), 0, recvCount, recvDispl,
                ElementType.INT);
    }

    /**
     * Counts each key value among the received keys and turns the counts into cumulative counts, so that
     * {@code keyBuff1[k - minKeyVal]} is the number of this rank's keys {@code <= k}. Also sets the number of keys
     * on lower ranks ({@code m}) and on this rank ({@code j}).
     */
    private void rankReceivedKeys() {
        minKeyVal = processBucketDistribPtr1[myRank] << shift;
        maxKeyVal = ((processBucketDistribPtr2[myRank] + 1) << shift) - 1;
        int m = 0;
        for (int k = 0; k < myRank; k++) {
            for (int i = processBucketDistribPtr1[k]; i <= processBucketDistribPtr2[k]; i++) {
                m += bucketSizeTotals[i];
            }
        }
        int j = 0;
        for (int i = processBucketDistribPtr1[myRank]; i <= processBucketDistribPtr2[myRank]; i++) {
            j += bucketSizeTotals[i];
        }
        totalLesserKeys = m;
        totalLocalKeys = j;
        int range = maxKeyVal - minKeyVal + 1;
        IsOps.cumulativeCounts(keyBuff2, j, minKeyVal, keyBuff1, range, countScratch);
    }

    /**
     * Region 5: the rank whose key range holds a test key (rank 0 for every test key after value counts) compares
     * its rank (keys smaller than it, over all ranks) with NPB's reference for this iteration, and stores this
     * iteration's tally in its slot.
     */
    private void partialVerify(int iteration) {
        int passed = 0;
        int failed = 0;
        for (int i = 0; i < TEST_ARRAY_SIZE; i++) {
            int k = testKey(i);
            if (minKeyVal <= k && k <= maxKeyVal) {
                // Keys below k on this rank; none if k is this rank's smallest possible key.
                int lesserHere = k > minKeyVal ? keyBuff1.get(k - 1 - minKeyVal) : 0;
                int keyRank = lesserHere + totalLesserKeys;
                if (keyRank == params.expectedRank(i, iteration)) {
                    passed++;
                } else {
                    failed++;
                    log.printf(Locale.ROOT, "Failed partial verification: iteration %d, processor %d, test key %d,"
                            + " key rank %d%n", iteration, myRank, i, keyRank);
                }
            }
        }
        passedVerification.set(iteration, passed);
        failedVerification.set(iteration, failed);
    }

    // ---- verification ---------------------------------------------------------------------------------------------

    /**
     * First half of NPB's {@code full_verify}: sorts this rank's keys into {@code sorted} by their ranks (NPB sorts
     * into {@code key_array}; see the class comment for why this does not).
     */
    void sortLocalKeys(int[] sorted) {
        IntArray counts = keyBuff1;
        IntArray received = keyBuff2;
        int min = minKeyVal;
        for (int i = 0; i < totalLocalKeys; i++) {
            int key = received.get(i);
            int slot = counts.get(key - min) - 1;
            counts.set(key - min, slot);
            sorted[slot] = key;
        }
    }

    /**
     * Second half of NPB's {@code full_verify}: counts keys out of order in {@code sorted[0 .. count)}, including
     * this rank's first key against the previous rank's last key. A rank without keys passes on
     * {@code Integer.MIN_VALUE}, so the boundary check skips it (NPB would compare against a stale key there).
     *
     * @return the number of keys out of order on this rank
     */
    int countOutOfOrder(int[] sorted, int count) {
        int[] last = {count > 0 ? sorted[count - 1] : Integer.MIN_VALUE};
        int[] previous = {Integer.MIN_VALUE};
        if (commSize > 1) {
            // A ring shift: rank 0 ignores what the last rank sends it.
            comm.sendrecv(last, 0, 1, (myRank + 1) % commSize, FULL_VERIFY_TAG,
                    previous, 0, 1, (myRank - 1 + commSize) % commSize, FULL_VERIFY_TAG);
        }
        int outOfOrder = 0;
        if (myRank > 0 && count > 0 && previous[0] > sorted[0]) {
            outOfOrder++;
        }
        for (int i = 1; i < count; i++) {
            if (sorted[i - 1] > sorted[i]) {
                outOfOrder++;
            }
        }
        if (outOfOrder != 0) {
            log.printf(Locale.ROOT, "Processor %d:  Full_verify: number of keys out of sort: %d%n", myRank,
                    outOfOrder);
        }
        return outOfOrder;
    }

    /**
     * Combines every rank's verification: successful iff all {@code 5 * MAX_ITERATIONS} partial verifications passed,
     * no rank found keys out of order, no key was lost in the exchange, every rank of the last iteration is the
     * bucket sort's ({@code rankMismatches}, 0 after bucket-sort iterations), and the keys sorted are the benchmark's
     * keys (equal fingerprints over all ranks).
     */
    Verdict verify(int outOfOrder, int rankMismatches, KeySetFingerprint sortedKeys,
                   KeySetFingerprint generatedKeys) {
        long passed = 0;
        long failed = 0;
        for (int it = 1; it <= MAX_ITERATIONS; it++) {
            passed += passedVerification.get(it);
            failed += failedVerification.get(it);
        }
        int sortedAt = 5;
        int generatedAt = sortedAt + KeySetFingerprint.LENGTH;
        long[] tally = new long[generatedAt + KeySetFingerprint.LENGTH];
        tally[0] = passed;
        tally[1] = failed;
        tally[2] = outOfOrder == 0 ? 1 : 0;
        tally[3] = totalLocalKeys;
        tally[4] = rankMismatches;
        sortedKeys.addTo(tally, sortedAt);
        generatedKeys.addTo(tally, generatedAt);
        comm.allreduce(tally, 0, tally, 0, tally.length, ReduceOp.SUM);
        int expectedPartial = TEST_ARRAY_SIZE * MAX_ITERATIONS;
        boolean sameKeys = Arrays.equals(tally, sortedAt, generatedAt, tally, generatedAt, tally.length);
        boolean accepted = tally[0] == expectedPartial && tally[1] == 0 && tally[2] == commSize
                && tally[3] == params.totalKeys() && tally[4] == 0 && sameKeys;
        String reason = String.format(Locale.ROOT,
                "partial %d/%d passed (%d failed); full: sorted on %d/%d ranks, %d/%d keys, %d ranks of the last"
                        + " iteration differ from the sort's; ", tally[0], expectedPartial, tally[1], tally[2],
                commSize, tally[3], params.totalKeys(), tally[4])
                + (sameKeys ? "key fingerprint (" + KeySetFingerprint.describe(tally, sortedAt)
                        + ") matches the generated keys"
                : "key fingerprint of the sorted keys (" + KeySetFingerprint.describe(tally, sortedAt)
                        + ") differs from the generated keys' (" + KeySetFingerprint.describe(tally, generatedAt)
                        + ")");
        return accepted ? Verdict.accept(reason) : Verdict.reject(reason);
    }

    private void printHeader() {
        log.printf(Locale.ROOT, "%n%n NAS Parallel Benchmarks 3.4 (Lazarus Java) -- IS Benchmark%n%n");
        log.printf(Locale.ROOT, " Size:  %d  (class %s)%n", params.totalKeys(), params.problemClass());
        log.printf(Locale.ROOT, " Iterations:   %d%n", MAX_ITERATIONS);
        log.printf(Locale.ROOT, " Total number of processes:  %d%n", commSize);
    }
}
