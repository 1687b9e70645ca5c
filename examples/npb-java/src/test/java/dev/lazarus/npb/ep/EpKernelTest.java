package dev.lazarus.npb.ep;

import dev.lazarus.easycrash.DoubleArray;
import dev.lazarus.easycrash.EasyCrash;
import dev.lazarus.easycrash.ObjectRole;
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
import dev.lazarus.verification.checks.ReferenceValues;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EpKernelTest {
    @TempDir
    Path nvm;

    @Test
    void batchSeedJumpMatchesSteppingTheGeneratorThroughEarlierBatches() {
        EpKernel kernel = new EpKernel();
        kernel.setup(ProblemClass.S);
        NpbRandom sequential = new NpbRandom(EpKernel.S);
        for (int k = 0; k < 4; k++) {
            kernel.findBatchSeed(k);
            assertEquals(sequential.seed(), kernel.batchSeed, "seed of batch " + k);
            for (int i = 0; i < 2 * EpKernel.NK; i++) {
                sequential.randlc(EpKernel.A);
            }
        }
    }

    @Test
    void uniformsOfABatchContinueTheSequence() throws Exception {
        NpbRandom sequential = new NpbRandom(EpKernel.S);
        for (int i = 0; i < 2 * EpKernel.NK; i++) {
            sequential.randlc(EpKernel.A);
        }
        double[] expected = new double[2 * EpKernel.NK];
        sequential.vranlc(expected.length, EpKernel.A, expected, 0);
        double[] generated = onHeap("ep-uniforms", kernel -> {
            kernel.findBatchSeed(1);
            kernel.generateUniforms();
            return kernel.x.toArray();
        });
        assertArrayEquals(expected, generated);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 4, 5, 7, 9, 4099})
    void interleavedStreamsGiveTheSingleStreamsNumbersForAnyCount(int count) {
        double seed = 314159265.0 + 77;
        double[] expected = new double[count];
        new NpbRandom(seed).vranlc(count, EpKernel.A, expected, 0);
        DoubleArray xs = DoubleArray.plain("x", count + 1, ObjectRole.REINITIALIZED);
        xs.set(count, -1.0);
        EpOps.generateUniforms(xs, seed, EpKernel.A, count);
        assertArrayEquals(expected, Arrays.copyOf(xs.toArray(), count));
        assertEquals(-1.0, xs.get(count), "nothing written past count");
    }

    @Test
    void tallyAcceptsPairsInsideTheUnitDiscOnly() throws Exception {
        double[][] tallies = onHeap("ep-tally", kernel -> {
            // (0.99, 0.99) maps to (0.98, 0.98): outside the unit disc, rejected.
            kernel.x.fill(0.99);
            // (0.75, 0.5) maps to (0.5, 0): t1 = 0.25, deviate X = 0.5 * sqrt(8 ln 4), Y = 0.
            kernel.x.set(0, 0.75);
            kernel.x.set(1, 0.5);
            // (0.25, 0.875) maps to (-0.5, 0.75): t1 = 0.8125.
            kernel.x.set(2, 0.25);
            kernel.x.set(3, 0.875);
            // Slot 0 holds one earlier pair in annulus 3, which the tally of batch 1 must carry over.
            kernel.tallies.set(EpKernel.COUNTS + 3, 1.0);
            kernel.tallyGaussianPairs(1);
            double[] slot = new double[EpKernel.TALLY];
            kernel.tallies.copyTo(EpKernel.TALLY, slot, 0, EpKernel.TALLY);
            return new double[][] {Arrays.copyOfRange(slot, EpKernel.COUNTS, EpKernel.TALLY),
                    Arrays.copyOfRange(slot, 0, EpKernel.COUNTS), kernel.tallies.toArray()};
        });
        double[] q = tallies[0];
        double[] sums = tallies[1];
        assertEquals(1.0, tallies[2][EpKernel.COUNTS + 3], "slot 0 is only read");
        assertEquals(0.0, tallies[2][EpKernel.SX], "slot 0 is only read");

        double first = 0.5 * Math.sqrt(8.0 * Math.log(4.0));
        double t2 = Math.sqrt(-2.0 * Math.log(0.8125) / 0.8125);
        assertEquals(3.0, Arrays.stream(q).sum());
        assertEquals(first + 0.5 * t2, sums[EpKernel.SX], 1e-15);
        assertEquals(0.75 * t2, sums[EpKernel.SY], 1e-15);
        assertEquals(first - 0.5 * t2, sums[EpKernel.SX_SIGNED], 1e-15);
        assertEquals(0.75 * t2, sums[EpKernel.SY_SIGNED], 1e-15);
        double[] expectedCounts = new double[EpKernel.NQ];
        expectedCounts[3] += 1.0;
        expectedCounts[(int) first] += 1.0;
        expectedCounts[(int) (0.75 * t2)] += 1.0;
        assertArrayEquals(expectedCounts, q);
    }

    @Test
    void classSOnTwoRanksVerifiesAndMatchesNpbCounts() throws Exception {
        EpKernel[] kernels = new EpKernel[2];
        List<Integer> status = ThreadComm.run(2, comm -> {
            EpKernel kernel = new EpKernel();
            kernels[comm.rank()] = kernel;
            return KernelRuns.status(comm, kernel, TestNvm.settings(nvm, "ep2"), "--class", "S", "--quiet");
        });
        assertEquals(List.of(0, 0), status);
        for (EpKernel kernel : kernels) {
            // Counts printed by NPB 3.3.1 for class S, the same on every rank after the reduction.
            assertArrayEquals(new double[] {6140517, 5865300, 1100361, 68546, 1648, 17, 0, 0, 0, 0}, kernel.counts);
            assertEquals(13176389.0, kernel.gc);
        }
    }

    @Test
    void classSOnThreeRanksSplitsTheBatchesUnevenlyAndVerifies() throws Exception {
        List<Integer> status = ThreadComm.run(3, comm -> {
            return KernelRuns.status(comm, new EpKernel(), TestNvm.settings(nvm, "ep3"), "--class", "S", "--quiet");
        });
        assertEquals(List.of(0, 0, 0), status);
    }

    /** A crash before batch 100 touched the tallies: they hold exactly batches 1 to 99, so the restart is exact. */
    @Test
    void aCrashBeforeABatchIsTalliedResumesAtThatBatchAndVerifies() throws Exception {
        String job = "ep-before";
        crashRun(1, job, rank -> app -> new CrashAt(app, 100, false));

        RecomputingRun.Outcome outcome = ThreadComm.run(1, comm -> run(comm, job, UnaryOperator.identity())).get(0);
        assertTrue(outcome.resumed() && !outcome.rolledBack(), outcome.toString());
        assertEquals(100, outcome.firstIteration());
        assertTrue(outcome.verdict().accepted(), outcome.verdict().reason());
    }

    /**
     * Batch 100 is already tallied (its slot written) when the process dies, and every store survives a process
     * crash: the restart at bookmark 100 runs the batch again from slot 99, writes the same slot 100 and verifies.
     * Accumulating in place, as NPB does, counted the batch twice and rolled back.
     */
    @ParameterizedTest(name = "{0} thread ranks")
    @ValueSource(ints = {1, 2})
    void aCrashAfterABatchWasTalliedResumesExactly(int ranks) throws Exception {
        String job = "ep-after" + ranks;
        crashRun(ranks, job, rank -> app -> new CrashAt(app, 100, true));

        for (RecomputingRun.Outcome outcome : ThreadComm.run(ranks,
                comm -> run(comm, job, UnaryOperator.identity()))) {
            assertTrue(outcome.resumed() && !outcome.rolledBack(), outcome.toString());
            assertEquals(100, outcome.firstIteration());
            assertTrue(outcome.verdict().accepted(), outcome.verdict().reason());
        }
    }

    /**
     * The ranks stood at different batches (EP never synchronizes them); the runtime resumes both at the smaller
     * bookmark, 60, and rank 1 runs batches 60 to 79 again: each from the slot before it, so nothing is counted twice
     * and the job verifies without rolling back.
     */
    @Test
    void ranksResumedAtTheSmallestBookmarkRunTheirExtraBatchesAgainExactly() throws Exception {
        String job = "ep-apart";
        crashRun(2, job, rank -> app -> new CrashAt(app, rank == 0 ? 60 : 80, false));

        for (RecomputingRun.Outcome outcome : ThreadComm.run(2, comm -> run(comm, job, UnaryOperator.identity()))) {
            assertTrue(outcome.resumed() && !outcome.rolledBack(), outcome.toString());
            assertEquals(60, outcome.firstIteration());
            assertTrue(outcome.verdict().accepted(), outcome.verdict().reason());
        }
    }

    @Test
    void moreRanksThanBatchesIsRejected() {
        // Class S has 256 batches; a communicator that only knows its size is enough to reach the check.
        Comm tooMany = (Comm) Proxy.newProxyInstance(Comm.class.getClassLoader(), new Class<?>[] {Comm.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "size" -> 257;
                    case "rank" -> 0;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        assertThrows(IllegalArgumentException.class, () -> new EpKernel().run(tooMany, new String[] {"-c", "S"}));
    }

    @Test
    void verificationRejectsPerturbedSumsAndCounts() {
        EpVerification ref = EpVerification.forClass(ProblemClass.W);
        double[] counts = Arrays.stream(ref.countRefs()).asDoubleStream().toArray();
        assertTrue(ref.verify(ref.sxRef(), ref.syRef(), ref.gcRef(), ref.sxSignedRef(), ref.sySignedRef(), counts)
                .accepted());
        assertFalse(ref.verify(ref.sxRef() * (1 + 2e-8), ref.syRef(), ref.gcRef(), ref.sxSignedRef(),
                ref.sySignedRef(), counts).accepted());
        assertFalse(ref.verify(ref.sxRef(), ref.syRef(), ref.gcRef() + 1, ref.sxSignedRef(),
                ref.sySignedRef(), counts).accepted());
        assertFalse(ref.verify(ref.sxRef(), ref.syRef(), ref.gcRef(), ref.sxSignedRef(),
                -ref.sySignedRef(), counts).accepted());
        assertFalse(ref.verify(Double.NaN, ref.syRef(), ref.gcRef(), ref.sxSignedRef(),
                ref.sySignedRef(), counts).accepted());
    }

    /** Changes NPB's checks cannot see: gc and the sums stay within 1e-8, yet a reported count is wrong. */
    @Test
    void verificationRejectsEveryCountThatIsNotExact() {
        EpVerification ref = EpVerification.forClass(ProblemClass.B);
        double[] counts = Arrays.stream(ref.countRefs()).asDoubleStream().toArray();
        assertTrue(ref.verifyCounts(counts).accepted());
        double[] moved = counts.clone();
        moved[1]--;
        moved[2]++;
        double[] offByEight = counts.clone();
        offByEight[6] += 8;
        double[] fraction = counts.clone();
        fraction[0] = Math.nextUp(fraction[0]);
        for (double[] wrong : List.of(moved, offByEight, fraction)) {
            double gc = Arrays.stream(wrong).sum();
            assertTrue(ReferenceValues.relativeError(gc, ref.gcRef()) <= EpKernel.EPSILON, "NPB's check passes");
            Verdict verdict = ref.verify(ref.sxRef(), ref.syRef(), gc, ref.sxSignedRef(), ref.sySignedRef(), wrong);
            assertFalse(verdict.accepted(), verdict.reason());
            assertTrue(verdict.reason().startsWith("q["), verdict.reason());
        }
        counts[9] = Double.NaN;
        assertFalse(ref.verifyCounts(counts).accepted());
    }

    @ParameterizedTest
    @EnumSource(ProblemClass.class)
    void referenceCountsAddUpToNpbsPairCount(ProblemClass pc) {
        EpVerification ref = EpVerification.forClass(pc);
        assertEquals(EpKernel.NQ, ref.countRefs().length);
        assertEquals(ref.gcRef(), Arrays.stream(ref.countRefs()).sum());
    }

    @Test
    void classSizesFollowNpb() {
        assertEquals(24, EpKernel.classM(ProblemClass.S));
        assertEquals(25, EpKernel.classM(ProblemClass.W));
        assertEquals(28, EpKernel.classM(ProblemClass.A));
        assertEquals(30, EpKernel.classM(ProblemClass.B));
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
        return KernelRuns.outcome(comm, new EpKernel(), TestNvm.settings(nvm, job), wrap, "--class", "S", "--quiet");
    }

    /** Runs {@code body} on a class S kernel whose objects live in a fresh heap of job {@code job}. */
    private <R> R onHeap(String job, Function<EpKernel, R> body) throws Exception {
        return ThreadComm.run(1, comm -> {
            EpKernel kernel = new EpKernel();
            kernel.prepare(comm, new String[] {"--class", "S"}); // one rank: all of class S's batches
            try (EasyCrash easyCrash = EasyCrash.start(comm, kernel.application(), kernel.signature(),
                    kernel.regions(), kernel.heapBytes(), TestNvm.settings(nvm, job), null, null)) {
                kernel.attach(easyCrash);
                kernel.initialize(true);
                return body.apply(kernel);
            }
        }).get(0);
    }

    /** Stands for a crash: it leaves the main loop without the heap being released, as a killed process would. */
    static final class SimulatedCrash extends RuntimeException {
        SimulatedCrash(int iteration) {
            super("simulated crash in iteration " + iteration);
        }
    }

    /** Runs {@code app} but crashes in iteration {@code at}, before its first region or after its last one. */
    static final class CrashAt extends DelegatingRecomputable {
        private final int at;
        private final boolean afterIterating;

        CrashAt(Recomputable app, int at, boolean afterIterating) {
            super(app);
            this.at = at;
            this.afterIterating = afterIterating;
        }

        @Override
        public void iterate(int iteration, EasyCrash easyCrash) {
            if (iteration == at && !afterIterating) {
                throw new SimulatedCrash(iteration);
            }
            app.iterate(iteration, easyCrash);
            if (iteration == at) {
                throw new SimulatedCrash(iteration);
            }
        }
    }
}
