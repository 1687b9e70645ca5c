package dev.lazarus.npb.is;

import dev.lazarus.easycrash.EasyCrash;
import dev.lazarus.easycrash.Recomputable;
import dev.lazarus.easycrash.RecomputingRun;
import dev.lazarus.npb.testing.DelegatingRecomputable;
import dev.lazarus.npb.testing.KernelRuns;
import dev.lazarus.npb.testing.TestNvm;
import dev.lazarus.mpi.testing.ThreadComm;
import dev.lazarus.mpi.Comm;
import dev.lazarus.npb.common.NpbRandom;
import dev.lazarus.npb.common.ProblemClass;
import dev.lazarus.verification.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;

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

    @Test
    void keySetFingerprintIgnoresOrderAndSeesAnyOneChangedKey() {
        int[] keys = {5, 3, 3, 2047, 0, 17};
        int[] shuffled = {3, 17, 0, 5, 2047, 3};
        assertArrayEquals(parts(keys), parts(shuffled));
        for (int i = 0; i < keys.length; i++) {
            for (int changed : new int[] {keys[i] + 1, keys[i] ^ 0x80, keys[(i + 1) % keys.length]}) {
                int[] other = keys.clone();
                other[i] = changed;
                if (changed != keys[i]) {
                    assertFalse(Arrays.equals(parts(keys), parts(other)), "key " + i + " -> " + changed);
                }
            }
        }
        assertFalse(Arrays.equals(parts(keys), parts(Arrays.copyOf(keys, keys.length - 1))), "a key fewer");
    }

    /** The fingerprint of the generated keys is that of keyArray after the last iteration planted its keys. */
    @Test
    void generatedKeySetIsTheKeysTheLastIterationRanks() {
        IsParameters s = IsParameters.of(ProblemClass.S);
        int[] keys = generate(s, 0, 1);
        for (int i = 1; i <= IsKernel.MAX_ITERATIONS; i++) {
            keys[i] = i;
            keys[i + IsKernel.MAX_ITERATIONS] = s.maxKey() - i;
        }
        IsKernel kernel = new IsKernel();
        kernel.setup(sizeOnlyComm(1), s);
        long[] generated = new long[KeySetFingerprint.LENGTH];
        kernel.generatedKeySet().addTo(generated, 0);
        assertArrayEquals(parts(keys), generated);
    }

    private static long[] parts(int[] keys) {
        long[] parts = new long[KeySetFingerprint.LENGTH];
        KeySetFingerprint.of(keys, keys.length).addTo(parts, 0);
        return parts;
    }

    @TempDir
    Path nvm;

    /** Up to 16 ranks class S ranks by value counts, from 32 on by the bucket sort ({@link IsKernel#byValueCounts}). */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4, 8, 32})
    void classSVerifiesOnPowerOfTwoRankCounts(int ranks) throws Exception {
        List<Verdict> verdicts = runKernel(ranks, IsParameters.of(ProblemClass.S));
        for (Verdict verdict : verdicts) {
            assertTrue(verdict.accepted(), verdict.reason());
        }
    }

    @Test
    void valueCountsWhileTheyAreASmallerMessageThanARanksKeys() {
        assertTrue(IsKernel.byValueCounts(IsParameters.of(ProblemClass.S), 16));
        assertFalse(IsKernel.byValueCounts(IsParameters.of(ProblemClass.S), 32));
        assertTrue(IsKernel.byValueCounts(IsParameters.of(ProblemClass.A), 8));
        assertFalse(IsKernel.byValueCounts(IsParameters.of(ProblemClass.A), 16));
    }

    /**
     * The full verification compares every rank the last iteration computed from value counts with the bucket
     * sort's: one wrong count at each end of the key range, on the ranks that sort those values, fails it.
     */
    @ParameterizedTest(name = "{0} thread ranks")
    @ValueSource(ints = {1, 2})
    void aWrongRankOfTheLastIterationFailsTheFullVerification(int ranks) throws Exception {
        int maxKey = IsParameters.of(ProblemClass.S).maxKey();
        List<RecomputingRun.Outcome> outcomes = ThreadComm.run(ranks, comm -> run(comm, "is-wrong-rank" + ranks,
                app -> new DelegatingRecomputable(app) {
                    @Override
                    public void iterate(int iteration, EasyCrash easyCrash) {
                        app.iterate(iteration, easyCrash);
                        IsKernel kernel = (IsKernel) app;
                        if (iteration == IsKernel.MAX_ITERATIONS) {
                            int value = comm.rank() == 0 ? 0 : maxKey - 1;
                            kernel.keyBuff1.set(value, kernel.keyBuff1.get(value) + 1);
                            if (ranks == 1) {
                                kernel.keyBuff1.set(maxKey - 1, kernel.keyBuff1.get(maxKey - 1) + 1);
                            }
                        }
                    }
                }));
        for (RecomputingRun.Outcome outcome : outcomes) {
            assertFalse(outcome.verdict().accepted(), outcome.verdict().reason());
            assertTrue(outcome.verdict().reason().contains("2 ranks of the last iteration differ from the sort's"),
                    outcome.verdict().reason());
        }
    }

    @Test
    void classWVerifiesOnTwoRanks() throws Exception {
        for (Verdict verdict : runKernel(2, IsParameters.of(ProblemClass.W))) {
            assertTrue(verdict.accepted(), verdict.reason());
        }
    }

    /**
     * The worst moment for the partial-verification tally: iteration 4 has run completely (its slot is written) but
     * iteration 5 has not been bookmarked, so the restart runs iteration 4 again. It must count once, and iterations
     * 1 to 3, which the resumed run never sees, must still count.
     */
    @ParameterizedTest(name = "{0} thread ranks")
    @ValueSource(ints = {1, 2, 32})
    void restartAfterACrashResumesAtTheBookmarkAndVerifies(int ranks) throws Exception {
        String job = "is-restart" + ranks;
        crashRun(ranks, job, rank -> app -> new CrashAt(app, 4, true, () -> { }));

        List<RecomputingRun.Outcome> resumed = ThreadComm.run(ranks, comm -> run(comm, job, UnaryOperator.identity()));
        for (RecomputingRun.Outcome outcome : resumed) {
            assertTrue(outcome.resumed() && !outcome.rolledBack(), outcome.toString());
            assertEquals(4, outcome.firstIteration());
            assertTrue(outcome.verdict().accepted(), outcome.verdict().reason());
            assertTrue(outcome.verdict().reason().startsWith("partial 50/50 passed (0 failed)"),
                    outcome.verdict().reason());
        }
        // A finished run releases its heap: the next run of the job starts from the beginning.
        RecomputingRun.Outcome next = ThreadComm.run(ranks, comm -> run(comm, job, UnaryOperator.identity())).get(0);
        assertFalse(next.resumed());
        assertEquals(1, next.firstIteration());
    }

    /**
     * Rank 0 has bookmarked iteration 6 and planted its keys when it dies; rank 1 dies having finished iteration 5.
     * The runtime resumes both at 5, so rank 0 must un-plant iteration 6's keys for iteration 5 to verify.
     */
    @Test
    void aRankResumedBehindItsOwnBookmarkReplantsTheKeysOfThatIteration() throws Exception {
        String job = "is-disagree";
        crashRun(2, job, rank -> app -> rank == 0
                ? new CrashAt(app, 6, false, () -> ((IsKernel) app).alterKeys(6))
                : new CrashAt(app, 5, true, () -> { }));

        for (RecomputingRun.Outcome outcome : ThreadComm.run(2, comm -> run(comm, job, UnaryOperator.identity()))) {
            assertTrue(outcome.resumed(), outcome.toString());
            assertEquals(5, outcome.firstIteration());
            assertTrue(outcome.verdict().accepted(), outcome.verdict().reason());
        }
    }

    /** Keys NVM lost (zeros where the crash left stale lines) fail verification: the job rolls back and verifies. */
    @Test
    void staleKeysFailTheResumedRunWhichRollsBackToAFreshStart() throws Exception {
        String job = "is-stale";
        crashRun(1, job, rank -> app -> new CrashAt(app, 3, false, () -> {
            IsKernel kernel = (IsKernel) app;
            for (int i = 0; i < kernel.keyArray.length() / 3; i++) {
                kernel.keyArray.set(i, 0);
            }
        }));

        RecomputingRun.Outcome outcome = ThreadComm.run(1, comm -> run(comm, job, UnaryOperator.identity())).get(0);
        assertTrue(outcome.rolledBack(), outcome.toString());
        assertEquals(1, outcome.firstIteration());
        assertTrue(outcome.verdict().accepted(), outcome.verdict().reason());
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
        IsKernel.createSeq(new NpbRandom(seed), p.maxKey(), count, (i, key) -> keys[i] = key);
        return keys;
    }

    private static void replace(int[] keys, int[] histogram, int index, int value) {
        histogram[keys[index]]--;
        keys[index] = value;
        histogram[value]++;
    }

    private List<Verdict> runKernel(int ranks, IsParameters parameters) throws Exception {
        return ThreadComm.run(ranks, comm -> {
            IsKernel kernel = new IsKernel(parameters);
            kernel.log(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            return KernelRuns.outcome(comm, kernel, TestNvm.settings(nvm, "is" + ranks), "--quiet").verdict();
        });
    }

    /**
     * Runs job {@code job} until every rank has crashed. Each rank catches its own crash, so that no rank is
     * interrupted by {@link ThreadComm} while it still closes its heap.
     */
    private void crashRun(int ranks, String job, IntFunction<UnaryOperator<Recomputable>> wrapOfRank)
            throws Exception {
        List<Boolean> crashed = ThreadComm.run(ranks, comm -> {
            try {
                run(comm, job, wrapOfRank.apply(comm.rank()));
                return false;
            } catch (SimulatedCrash expected) {
                return true;
            }
        });
        assertEquals(Collections.nCopies(ranks, true), crashed);
    }

    private RecomputingRun.Outcome run(Comm comm, String job, UnaryOperator<Recomputable> wrap) throws Exception {
        IsKernel kernel = new IsKernel();
        kernel.log(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        return KernelRuns.outcome(comm, kernel, TestNvm.settings(nvm, job), wrap, "--class", "S", "--quiet");
    }

    /** Stands for a crash: it leaves the main loop without the heap being released, as a killed process would. */
    static final class SimulatedCrash extends RuntimeException {
        SimulatedCrash(int iteration) {
            super("simulated crash in iteration " + iteration);
        }
    }

    /**
     * Runs {@code app} but crashes in iteration {@code at}: after running {@code damage}, and either before the
     * iteration's first region or after its last one.
     */
    static final class CrashAt extends DelegatingRecomputable {
        private final int at;
        private final boolean afterIterating;
        private final Runnable damage;

        CrashAt(Recomputable app, int at, boolean afterIterating, Runnable damage) {
            super(app);
            this.at = at;
            this.afterIterating = afterIterating;
            this.damage = damage;
        }

        @Override
        public void iterate(int iteration, EasyCrash easyCrash) {
            if (iteration == at && !afterIterating) {
                damage.run();
                throw new SimulatedCrash(iteration);
            }
            app.iterate(iteration, easyCrash);
            if (iteration == at) {
                damage.run();
                throw new SimulatedCrash(iteration);
            }
        }
    }

    private static int outOfOrder(Comm comm, int[] keys) {
        IsKernel kernel = new IsKernel();
        kernel.setup(comm, IsParameters.of(ProblemClass.S));
        kernel.log(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        return kernel.countOutOfOrder(keys, keys.length);
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
