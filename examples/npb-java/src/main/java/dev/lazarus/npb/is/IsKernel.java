package dev.lazarus.npb.is;

import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.MpiApplication;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.npb.common.KernelOptions;
import dev.lazarus.npb.common.NpbRandom;
import dev.lazarus.npb.common.NpbReport;
import dev.lazarus.npb.common.ProblemClass;
import dev.lazarus.verification.Verdict;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;

/**
 * NPB IS (Integer Sort), MPI version of NPB 3.4 {@code is.c}: ranks {@code TOTAL_KEYS} integer keys ten times by a
 * bucket sort whose buckets are redistributed over the ranks with {@code alltoall}/{@code alltoallv}, checks the
 * ranks of five test keys in every iteration (partial verification) and, after the timed loop, that the keys end up
 * globally sorted (full verification). Runs on a power-of-two number of ranks, up to 128 for class S and 1024
 * otherwise.
 *
 * <p>Named data objects (NPB's names in camel case): {@code keyArray} ({@code key_array}, this rank's keys),
 * {@code keyBuff1} ({@code key_buff1}: keys grouped by bucket, then the key populations and ranks),
 * {@code keyBuff2} ({@code key_buff2}: the keys this rank received), {@code bucketSize},
 * {@code bucketSizeTotals}, {@code bucketPtrs}, {@code processBucketDistribPtr1},
 * {@code processBucketDistribPtr2}, {@code sendCount}, {@code recvCount}, {@code sendDispl},
 * {@code recvDispl}, and the counters {@code passedVerification} and {@code failedVerification}.
 *
 * <p>Regions of the timed main loop, in order, once per iteration (NPB's {@code rank()} split at its phases):
 * {@code alterKeys()} (plant the iteration's two keys), {@code bucketLocalKeys()} (count and group local keys by
 * bucket), {@code reduceBucketSizes()} (allreduce), {@code planRedistribution()} (which buckets go to which rank),
 * {@code exchangeKeys()} (alltoall and alltoallv), {@code rankKeys()} (key populations and ranks) and
 * {@code partialVerify()}.
 */
public final class IsKernel implements MpiApplication {
    /** Timed iterations, as in NPB. */
    static final int MAX_ITERATIONS = 10;
    private static final int TEST_ARRAY_SIZE = IsParameters.TEST_ARRAY_SIZE;
    private static final double SEED = 314159265.0;
    private static final int FULL_VERIFY_TAG = 1000;

    /** This rank's keys; after full verification, this rank's keys in sorted order. */
    int[] keyArray;
    /** Keys grouped by bucket before the exchange; key populations and then cumulative ranks after it. */
    int[] keyBuff1;
    /** Keys received from all ranks in the exchange. */
    int[] keyBuff2;
    /** Local keys per bucket; the last five entries carry the test keys to the allreduce. */
    int[] bucketSize;
    /** Global keys per bucket, and the five test keys. */
    int[] bucketSizeTotals;
    /** Next free slot per bucket while grouping local keys. */
    int[] bucketPtrs;
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
    /** Partial verifications passed on this rank. */
    int passedVerification;
    /** Partial verifications failed on this rank. */
    int failedVerification;

    private IsParameters params;
    private Comm comm;
    private int myRank;
    private int commSize;
    private int numKeys;
    private int numBuckets;
    private int shift;
    private int minKeyVal;
    private int maxKeyVal;
    /** Keys on lower ranks than this one after redistribution ({@code m} in NPB). */
    private int totalLesserKeys;
    /** Keys on this rank after redistribution ({@code j} in NPB). */
    int totalLocalKeys;
    private PrintStream log = System.out;

    /** Creates a kernel; {@link #run} sets it up for the chosen class. */
    public IsKernel() {
    }

    @Override
    public String name() {
        return "npb.IS";
    }

    @Override
    public int run(Comm world, String[] args) {
        KernelOptions options = KernelOptions.parse(name(), args);
        return execute(world, IsParameters.of(options.problemClass()), options.quiet()).accepted() ? 0 : 1;
    }

    /** Sets up, generates the keys, runs the timed iterations and both verifications; rank 0 prints the report. */
    Verdict execute(Comm world, IsParameters parameters, boolean quiet) {
        setup(world, parameters);
        boolean root = myRank == 0;
        boolean progress = root && !quiet;
        if (progress) {
            printHeader();
        }
        createSeq();
        // One untimed iteration first, as NPB does, so that code and data pages are warm.
        rankIteration(1);
        passedVerification = 0;
        failedVerification = 0;
        boolean printIterations = progress && params.problemClass() != ProblemClass.S;
        if (printIterations) {
            log.printf(Locale.ROOT, "%n   iteration%n");
        }

        comm.barrier();
        long start = System.nanoTime();
        for (int iteration = 1; iteration <= MAX_ITERATIONS; iteration++) {
            if (printIterations) {
                log.printf(Locale.ROOT, "        %d%n", iteration);
            }
            rankIteration(iteration);
        }
        double seconds = comm.allreduce((System.nanoTime() - start) * 1e-9, ReduceOp.MAX);

        sortLocalKeys();
        Verdict verdict = verify(countOutOfOrder());
        if (root) {
            double mops = (double) MAX_ITERATIONS * params.totalKeys() / seconds / 1e6;
            new NpbReport("IS", params.problemClass(), Integer.toString(params.totalKeys()), MAX_ITERATIONS,
                    seconds, commSize, mops, "keys ranked", verdict, comm.backend()).print(log);
        }
        return verdict;
    }

    /**
     * Checks the rank count and allocates the data objects.
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
        int sizeOfBuffers = size < 256 ? 3 * numKeys / 2 : size < 512 ? 5 * numKeys / 2 : 4 * numKeys;
        keyArray = new int[sizeOfBuffers];
        // key_buff1 also holds one counter per key value of this rank's key range, which is at most MAX_KEY.
        keyBuff1 = new int[Math.max(sizeOfBuffers, parameters.maxKey())];
        keyBuff2 = new int[sizeOfBuffers];
        bucketSize = new int[numBuckets + TEST_ARRAY_SIZE];
        bucketSizeTotals = new int[numBuckets + TEST_ARRAY_SIZE];
        bucketPtrs = new int[numBuckets];
        processBucketDistribPtr1 = new int[numBuckets + TEST_ARRAY_SIZE];
        processBucketDistribPtr2 = new int[numBuckets + TEST_ARRAY_SIZE];
        sendCount = new int[size];
        recvCount = new int[size];
        sendDispl = new int[size];
        recvDispl = new int[size];
    }

    /** Redirects the per-iteration messages (tests). */
    void log(PrintStream out) {
        this.log = out;
    }

    /** One whole NPB {@code rank(iteration)}: the regions of the main loop in order. */
    void rankIteration(int iteration) {
        alterKeys(iteration);
        bucketLocalKeys();
        reduceBucketSizes();
        planRedistribution();
        exchangeKeys();
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

    /** NPB's {@code create_seq}: this rank's keys, each {@code MAX_KEY/4} times a sum of four uniforms. */
    void createSeq() {
        double seed = findMySeed(myRank, commSize, 4L * params.totalKeys(), SEED, NpbRandom.A);
        createSeq(new NpbRandom(seed), params.maxKey(), keyArray, numKeys);
    }

    /** Fills {@code keys[0 .. count)} from {@code random}, as NPB's {@code create_seq}. */
    static void createSeq(NpbRandom random, int maxKey, int[] keys, int count) {
        int k = maxKey / 4;
        for (int i = 0; i < count; i++) {
            double x = random.randlc(NpbRandom.A);
            x += random.randlc(NpbRandom.A);
            x += random.randlc(NpbRandom.A);
            x += random.randlc(NpbRandom.A);
            keys[i] = (int) (k * x);
        }
    }

    /** Region 1: plants the keys {@code iteration} and {@code MAX_KEY - iteration}, so every iteration differs. */
    private void alterKeys(int iteration) {
        if (myRank == 0) {
            keyArray[iteration] = iteration;
            keyArray[iteration + MAX_ITERATIONS] = params.maxKey() - iteration;
        }
    }

    /** Region 2: counts local keys per bucket, stashes the local test keys, and groups the keys by bucket. */
    private void bucketLocalKeys() {
        Arrays.fill(bucketSize, 0);
        Arrays.fill(bucketSizeTotals, 0);
        Arrays.fill(processBucketDistribPtr1, 0);
        Arrays.fill(processBucketDistribPtr2, 0);
        // A test key lives on one rank only; the allreduce below then hands its value to every rank.
        int[] testIndexArray = params.testIndexArray();
        for (int i = 0; i < TEST_ARRAY_SIZE; i++) {
            if (testIndexArray[i] / numKeys == myRank) {
                bucketSize[numBuckets + i] = keyArray[testIndexArray[i] % numKeys];
            }
        }
        int[] keys = keyArray;
        int[] sizes = bucketSize;
        for (int i = 0; i < numKeys; i++) {
            sizes[keys[i] >> shift]++;
        }
        bucketPtrs[0] = 0;
        for (int i = 1; i < numBuckets; i++) {
            bucketPtrs[i] = bucketPtrs[i - 1] + sizes[i - 1];
        }
        int[] ptrs = bucketPtrs;
        int[] grouped = keyBuff1;
        for (int i = 0; i < numKeys; i++) {
            int key = keys[i];
            grouped[ptrs[key >> shift]++] = key;
        }
    }

    /** Region 3: global bucket sizes (and the test keys) on every rank. */
    private void reduceBucketSizes() {
        comm.allreduce(bucketSize, 0, bucketSizeTotals, 0, numBuckets + TEST_ARRAY_SIZE, ReduceOp.SUM);
    }

    /**
     * Region 4: gives consecutive buckets to each rank until it holds at least its share of all keys, and works out
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

    /** Region 5: tells every rank how many keys to expect, then sends each rank its buckets' keys. */
    private void exchangeKeys() {
        comm.alltoall(sendCount, 0, 1, recvCount, 0);
        recvDispl[0] = 0;
        for (int i = 1; i < commSize; i++) {
            recvDispl[i] = recvDispl[i - 1] + recvCount[i - 1];
        }
        int incoming = recvDispl[commSize - 1] + recvCount[commSize - 1];
        if (incoming > keyBuff2.length) {
            throw new IllegalStateException("npb.IS: rank " + myRank + " would receive " + incoming
                    + " keys, more than its buffer of " + keyBuff2.length);
        }
        comm.alltoallv(keyBuff1, 0, sendCount, sendDispl, keyBuff2, 0, recvCount, recvDispl);
    }

    /**
     * Region 6: counts each key value among the received keys and turns the counts into cumulative counts, so that
     * {@code keyBuff1[k - minKeyVal]} is the number of this rank's keys {@code <= k}. Also sets the number of keys
     * on lower ranks ({@code m}) and on this rank ({@code j}).
     */
    private void rankKeys() {
        minKeyVal = processBucketDistribPtr1[myRank] << shift;
        maxKeyVal = ((processBucketDistribPtr2[myRank] + 1) << shift) - 1;
        int[] counts = keyBuff1;
        int range = maxKeyVal - minKeyVal + 1;
        for (int i = 0; i < range; i++) {
            counts[i] = 0;
        }
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
        int[] received = keyBuff2;
        int min = minKeyVal;
        for (int i = 0; i < j; i++) {
            counts[received[i] - min]++;
        }
        for (int i = 0; i < range - 1; i++) {
            counts[i + 1] += counts[i];
        }
    }

    /**
     * Region 7: the rank that holds a test key compares its rank (keys smaller than it, over all ranks) with NPB's
     * reference for this iteration.
     */
    private void partialVerify(int iteration) {
        for (int i = 0; i < TEST_ARRAY_SIZE; i++) {
            int k = bucketSizeTotals[numBuckets + i];
            if (minKeyVal <= k && k <= maxKeyVal) {
                // Keys below k on this rank; none if k is this rank's smallest possible key.
                int lesserHere = k > minKeyVal ? keyBuff1[k - 1 - minKeyVal] : 0;
                int keyRank = lesserHere + totalLesserKeys;
                if (keyRank == params.expectedRank(i, iteration)) {
                    passedVerification++;
                } else {
                    failedVerification++;
                    log.printf(Locale.ROOT, "Failed partial verification: iteration %d, processor %d, test key %d,"
                            + " key rank %d%n", iteration, myRank, i, keyRank);
                }
            }
        }
    }

    /** First half of NPB's {@code full_verify}: sorts this rank's keys into {@code keyArray} by their ranks. */
    void sortLocalKeys() {
        int[] counts = keyBuff1;
        int min = minKeyVal;
        for (int i = 0; i < totalLocalKeys; i++) {
            int key = keyBuff2[i];
            keyArray[--counts[key - min]] = key;
        }
    }

    /**
     * Second half of NPB's {@code full_verify}: counts keys out of order in {@code keyArray[0 .. totalLocalKeys)},
     * including this rank's first key against the previous rank's last key. A rank without keys passes on
     * {@code Integer.MIN_VALUE}, so the boundary check skips it (NPB would compare against a stale key there).
     *
     * @return the number of keys out of order on this rank
     */
    int countOutOfOrder() {
        int[] last = {totalLocalKeys > 0 ? keyArray[totalLocalKeys - 1] : Integer.MIN_VALUE};
        int[] previous = {Integer.MIN_VALUE};
        if (commSize > 1) {
            // A ring shift: rank 0 ignores what the last rank sends it.
            comm.sendrecv(last, 0, 1, (myRank + 1) % commSize, FULL_VERIFY_TAG,
                    previous, 0, 1, (myRank - 1 + commSize) % commSize, FULL_VERIFY_TAG);
        }
        int outOfOrder = 0;
        if (myRank > 0 && totalLocalKeys > 0 && previous[0] > keyArray[0]) {
            outOfOrder++;
        }
        for (int i = 1; i < totalLocalKeys; i++) {
            if (keyArray[i - 1] > keyArray[i]) {
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
     * no rank found keys out of order, and no key was lost in the exchange.
     */
    Verdict verify(int outOfOrder) {
        long[] tally = {passedVerification, failedVerification, outOfOrder == 0 ? 1 : 0, totalLocalKeys};
        comm.allreduce(tally, 0, tally, 0, tally.length, ReduceOp.SUM);
        int expectedPartial = TEST_ARRAY_SIZE * MAX_ITERATIONS;
        boolean accepted = tally[0] == expectedPartial && tally[1] == 0 && tally[2] == commSize
                && tally[3] == params.totalKeys();
        String reason = String.format(Locale.ROOT,
                "partial %d/%d passed (%d failed); full: sorted on %d/%d ranks, %d/%d keys", tally[0],
                expectedPartial, tally[1], tally[2], commSize, tally[3], params.totalKeys());
        return accepted ? Verdict.accept(reason) : Verdict.reject(reason);
    }

    private void printHeader() {
        log.printf(Locale.ROOT, "%n%n NAS Parallel Benchmarks 3.4 (Lazarus Java) -- IS Benchmark%n%n");
        log.printf(Locale.ROOT, " Size:  %d  (class %s)%n", params.totalKeys(), params.problemClass());
        log.printf(Locale.ROOT, " Iterations:   %d%n", MAX_ITERATIONS);
        log.printf(Locale.ROOT, " Total number of processes:  %d%n", commSize);
    }
}
