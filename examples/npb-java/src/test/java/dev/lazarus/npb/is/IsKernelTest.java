package dev.lazarus.npb.is;

import dev.lazarus.npb.testing.ThreadComm;
import dev.lazarus.mpi.Comm;
import dev.lazarus.npb.common.NpbRandom;
import dev.lazarus.npb.common.ProblemClass;
import dev.lazarus.verification.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IsKernelTest {

    @Test
    void findMySeedMatchesSteppingTheGeneratorThroughLowerRanksNumbers() {
        int np = 4;
        long nn = 4L * 1024;
        NpbRandom sequential = new NpbRandom(314159265.0);
        for (int kn = 0; kn < np; kn++) {
            assertEquals(sequential.seed(), IsKernel.findMySeed(kn, np, nn, 314159265.0, NpbRandom.A),
                    "seed of rank " + kn);
            for (long i = 0; i < nn / np; i++) {
                sequential.randlc(NpbRandom.A);
            }
        }
    }

    @Test
    void keysGeneratedPerRankConcatenateToTheSingleRankSequence() {
        IsParameters s = IsParameters.of(ProblemClass.S);
        int total = s.totalKeys();
        int[] whole = generate(s, 0, 1);
        int[] parts = new int[total];
        int np = 8;
        for (int r = 0; r < np; r++) {
            System.arraycopy(generate(s, r, np), 0, parts, r * (total / np), total / np);
        }
        assertArrayEquals(whole, parts);
        assertTrue(Arrays.stream(whole).allMatch(k -> k >= 0 && k < s.maxKey()), "keys within [0, MAX_KEY)");
    }

    /**
     * Checks the generator, the copied test arrays and the per-iteration rank adjustment together, independently
     * of the bucket sort: a test key's rank is simply the number of keys smaller than it.
     */
    @ParameterizedTest
    @EnumSource(value = ProblemClass.class, names = {"S", "W", "A"})
    void naiveRanksOfTestKeysMatchNpbReferenceRanks(ProblemClass pc) {
        IsParameters p = IsParameters.of(pc);
        int[] keys = generate(p, 0, 1);
        int[] histogram = new int[p.maxKey()];
        for (int key : keys) {
            histogram[key]++;
        }
        for (int iteration = 1; iteration <= IsKernel.MAX_ITERATIONS; iteration++) {
            replace(keys, histogram, iteration, iteration);
            replace(keys, histogram, iteration + IsKernel.MAX_ITERATIONS, p.maxKey() - iteration);
            for (int i = 0; i < IsParameters.TEST_ARRAY_SIZE; i++) {
                int k = keys[p.testIndexArray()[i]];
                int smaller = 0;
                for (int v = 0; v < k; v++) {
                    smaller += histogram[v];
                }
                assertEquals(p.expectedRank(i, iteration), smaller, "class " + pc + " iteration " + iteration
                        + " test key " + i);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4, 8})
    void classSVerifiesOnPowerOfTwoRankCounts(int ranks) throws Exception {
        List<Verdict> verdicts = runKernel(ranks, IsParameters.of(ProblemClass.S));
        for (Verdict verdict : verdicts) {
            assertTrue(verdict.accepted(), verdict.reason());
        }
    }

    @Test
    void classWVerifiesOnTwoRanks() throws Exception {
        for (Verdict verdict : runKernel(2, IsParameters.of(ProblemClass.W))) {
            assertTrue(verdict.accepted(), verdict.reason());
        }
    }

    @Test
    void aWrongReferenceRankFailsPartialVerification() throws Exception {
        IsParameters s = IsParameters.of(ProblemClass.S);
        int[] ranks = s.testRankArray().clone();
        ranks[3]++;
        IsParameters tampered = new IsParameters(s.problemClass(), s.totalKeysLog2(), s.maxKeyLog2(),
                s.numBucketsLog2(), s.maxProcs(), s.testIndexArray(), ranks);
        for (Verdict verdict : runKernel(2, tampered)) {
            assertFalse(verdict.accepted());
            assertTrue(verdict.reason().startsWith("partial 40/50 passed (10 failed)"), verdict.reason());
        }
    }

    @Test
    void countOutOfOrderSeesDisorderWithinAndBetweenRanks() throws Exception {
        int[][] keys = {{1, 5, 6}, {4, 7, 8}};
        List<Integer> boundary = ThreadComm.run(2, comm -> outOfOrder(comm, keys[comm.rank()]));
        assertEquals(List.of(0, 1), boundary);

        int[][] local = {{3, 2, 9, 8}, {10, 11}};
        List<Integer> within = ThreadComm.run(2, comm -> outOfOrder(comm, local[comm.rank()]));
        assertEquals(List.of(2, 0), within);
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 6, 256})
    void rankCountsThatAreNotSupportedAreRejected(int size) {
        IsKernel kernel = new IsKernel();
        assertThrows(IllegalArgumentException.class,
                () -> kernel.setup(sizeOnlyComm(size), IsParameters.of(ProblemClass.S)));
    }

    @Test
    void expectedRankFollowsNpbClassPatterns() {
        assertEquals(0 + 3, IsParameters.of(ProblemClass.S).expectedRank(0, 3));
        assertEquals(64917 - 3, IsParameters.of(ProblemClass.S).expectedRank(3, 3));
        assertEquals(1249 + 3 - 2, IsParameters.of(ProblemClass.W).expectedRank(0, 3));
        assertEquals(1039987 - 3, IsParameters.of(ProblemClass.W).expectedRank(2, 3));
        assertEquals(8288932 - (3 - 1), IsParameters.of(ProblemClass.A).expectedRank(3, 3));
        assertEquals(99 + 3, IsParameters.of(ProblemClass.B).expectedRank(4, 3));
        assertEquals(33422937 - 3, IsParameters.of(ProblemClass.B).expectedRank(0, 3));
    }

    private static int[] generate(IsParameters p, int rank, int np) {
        int count = p.totalKeys() / np;
        int[] keys = new int[count];
        double seed = IsKernel.findMySeed(rank, np, 4L * p.totalKeys(), 314159265.0, NpbRandom.A);
        IsKernel.createSeq(new NpbRandom(seed), p.maxKey(), keys, count);
        return keys;
    }

    private static void replace(int[] keys, int[] histogram, int index, int value) {
        histogram[keys[index]]--;
        keys[index] = value;
        histogram[value]++;
    }

    private static List<Verdict> runKernel(int ranks, IsParameters parameters) throws Exception {
        return ThreadComm.run(ranks, comm -> {
            IsKernel kernel = new IsKernel();
            kernel.log(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            return kernel.execute(comm, parameters, true);
        });
    }

    private static int outOfOrder(Comm comm, int[] keys) {
        IsKernel kernel = new IsKernel();
        kernel.setup(comm, IsParameters.of(ProblemClass.S));
        kernel.log(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        System.arraycopy(keys, 0, kernel.keyArray, 0, keys.length);
        kernel.totalLocalKeys = keys.length;
        return kernel.countOutOfOrder();
    }

    /** A communicator that only answers {@code size()} and {@code rank()}, enough for argument checks. */
    private static Comm sizeOnlyComm(int size) {
        return (Comm) Proxy.newProxyInstance(Comm.class.getClassLoader(), new Class<?>[] {Comm.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "size" -> size;
                    case "rank" -> 0;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
