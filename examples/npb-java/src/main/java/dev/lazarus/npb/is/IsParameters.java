package dev.lazarus.npb.is;

import dev.lazarus.npb.common.ProblemClass;

/**
 * The sizes and partial-verification data of one IS class, copied from NPB 3.4's MPI {@code is.c}.
 *
 * @param problemClass   the class
 * @param totalKeysLog2  log2 of the total number of keys
 * @param maxKeyLog2     log2 of the key range: keys are in {@code [0, 2^maxKeyLog2)}
 * @param numBucketsLog2 log2 of the number of buckets
 * @param maxProcs       the largest rank count NPB validated for the class
 * @param testIndexArray global indices of the five test keys
 * @param testRankArray  their ranks before the per-iteration adjustment
 */
record IsParameters(ProblemClass problemClass, int totalKeysLog2, int maxKeyLog2, int numBucketsLog2,
                    int maxProcs, int[] testIndexArray, int[] testRankArray) {

    /** Number of test keys checked per iteration. */
    static final int TEST_ARRAY_SIZE = 5;

    /** The parameters of {@code problemClass}. */
    static IsParameters of(ProblemClass problemClass) {
        return switch (problemClass) {
            case S -> new IsParameters(problemClass, 16, 11, 9, 128,
                    new int[] {48427, 17148, 23627, 62548, 4431},
                    new int[] {0, 18, 346, 64917, 65463});
            case W -> new IsParameters(problemClass, 20, 16, 10, 1024,
                    new int[] {357773, 934767, 875723, 898999, 404505},
                    new int[] {1249, 11698, 1039987, 1043896, 1048018});
            case A -> new IsParameters(problemClass, 23, 19, 10, 1024,
                    new int[] {2112377, 662041, 5336171, 3642833, 4250760},
                    new int[] {104, 17523, 123928, 8288932, 8388264});
            case B -> new IsParameters(problemClass, 25, 21, 10, 1024,
                    new int[] {41869, 812306, 5102857, 18232239, 26860214},
                    new int[] {33422937, 10244, 59149, 33135281, 99});
        };
    }

    /** Total number of keys over all ranks. */
    int totalKeys() {
        return 1 << totalKeysLog2;
    }

    /** Keys are below this value. */
    int maxKey() {
        return 1 << maxKeyLog2;
    }

    /** Number of buckets the keys are distributed by. */
    int numBuckets() {
        return 1 << numBucketsLog2;
    }

    /**
     * The rank test key {@code i} must have in {@code iteration}: NPB shifts the reference rank by the iteration,
     * because each iteration plants the keys {@code iteration} and {@code MAX_KEY - iteration}, with a class-specific
     * sign pattern.
     */
    int expectedRank(int i, int iteration) {
        int rank = testRankArray[i];
        return switch (problemClass) {
            case S -> i <= 2 ? rank + iteration : rank - iteration;
            case W -> i < 2 ? rank + iteration - 2 : rank - iteration;
            case A -> i <= 2 ? rank + iteration - 1 : rank - (iteration - 1);
            case B -> i == 1 || i == 2 || i == 4 ? rank + iteration : rank - iteration;
        };
    }
}
