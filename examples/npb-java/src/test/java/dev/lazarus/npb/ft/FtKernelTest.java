package dev.lazarus.npb.ft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.easycrash.DoubleArray;
import dev.lazarus.easycrash.EasyCrash;
import dev.lazarus.easycrash.RecomputingRun;
import dev.lazarus.mpi.testing.ThreadComm;
import dev.lazarus.npb.common.NpbRandom;
import dev.lazarus.npb.common.ProblemClass;
import dev.lazarus.npb.testing.DelegatingRecomputable;
import dev.lazarus.npb.testing.TestHeap;
import dev.lazarus.npb.testing.KernelRuns;
import dev.lazarus.npb.testing.TestNvm;
import dev.lazarus.verification.Verdict;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class FtKernelTest {
    private static final FtProblem SMALL = new FtProblem(4, 8, 16, 1, new double[] {1.0}, new double[] {1.0});
    private static final String[] CLASS_S = {"--class", "S", "--quiet"};

    @TempDir
    Path nvm;
    private TestHeap heap;

    @BeforeEach
    void openHeap() throws IOException {
        heap = TestHeap.open(nvm.resolve("unit"));
    }

    @AfterEach
    void releaseHeap() throws IOException {
        heap.close();
    }

    @Test
    void everyRanksJumpAheadContinuesTheSequentialStream() {
        int total = 2 * SMALL.nx() * SMALL.ny() * SMALL.nz();
        double[] stream = new double[total];
        new NpbRandom(FtKernel.SEED).vranlc(total, NpbRandom.A, stream, 0);
        for (int np : new int[] {1, 2, 4, 8, 16}) {
            int chunk = total / np;
            for (int r = 0; r < np; r++) {
                DoubleArray slab = heap.zeros(chunk);
                FtKernel.computeInitialConditions(slab, SMALL, r, np);
                for (int i = 0; i < chunk; i++) {
                    assertEquals(stream[r * chunk + i], slab.get(i), 0.0, "np=" + np + " rank=" + r + " i=" + i);
                }
            }
        }
    }

    @Test
    void wavenumbersFoldToSignedRange() {
        int[] expected = {0, 1, 2, 3, -4, -3, -2, -1};
        for (int i = 0; i < 8; i++) {
            assertEquals(expected[i], FtKernel.fold(i, 8));
        }
    }

    @Test
    void twiddleIsTheDiffusionFactorOfTheFoldedWavenumbers() {
        int nx = SMALL.nx();
        int ny = SMALL.ny();
        int nz = SMALL.nz();
        int np = 2;
        int nyl = ny / np;
        double ap = -4.0 * FtKernel.ALPHA * Math.PI * Math.PI;
        for (int r = 0; r < np; r++) {
            DoubleArray t = heap.zeros(nx * ny * nz / np);
            FtKernel.computeTwiddle(t, SMALL, r, np);
            for (int jl = 0; jl < nyl; jl++) {
                int y = r * nyl + jl;
                int ky = y < ny / 2 ? y : y - ny;
                for (int x = 0; x < nx; x++) {
                    int kx = x < nx / 2 ? x : x - nx;
                    for (int z = 0; z < nz; z++) {
                        int kz = z < nz / 2 ? z : z - nz;
                        double expected = Math.exp(ap * (kx * kx + ky * ky + kz * kz));
                        assertEquals(expected, t.get(z + nz * (x + nx * jl)), 0.0);
                    }
                }
            }
        }
    }

    @Test
    void checksumSharesOfAllRanksAddUpToTheWholeGrid() {
        FtProblem s = FtProblem.of(ProblemClass.S);
        int n = (int) s.ntotal();
        Random random = new Random(5);
        double[] grid = new double[2 * n];
        for (int i = 0; i < grid.length; i++) {
            grid[i] = random.nextDouble();
        }
        double[] whole = new double[2];
        FtKernel.localChecksum(heap.of(grid), s, 0, 1, whole);
        // Directly by NPB's definition.
        double re = 0.0;
        double im = 0.0;
        for (int j = 1; j <= 1024; j++) {
            int idx = 2 * (j % 64 + 64 * ((3 * j) % 64 + 64 * ((5 * j) % 64)));
            re += grid[idx];
            im += grid[idx + 1];
        }
        assertEquals(re / n, whole[0], 1e-15);
        assertEquals(im / n, whole[1], 1e-15);
        int np = 4;
        double[] sum = new double[2];
        for (int r = 0; r < np; r++) {
            int chunk = grid.length / np;
            DoubleArray slab = heap.of(Arrays.copyOfRange(grid, r * chunk, (r + 1) * chunk));
            double[] part = new double[2];
            FtKernel.localChecksum(slab, s, r, np, part);
            sum[0] += part[0];
            sum[1] += part[1];
        }
        assertEquals(whole[0], sum[0], 1e-15);
        assertEquals(whole[1], sum[1], 1e-15);
    }

    private static double[] referenceSums(FtProblem p) {
        double[] sums = new double[2 * (p.niter() + 1)];
        double[] re = p.refReal();
        double[] im = p.refImag();
        for (int t = 1; t <= p.niter(); t++) {
            sums[2 * t] = re[t - 1];
            sums[2 * t + 1] = im[t - 1];
        }
        return sums;
    }

    @Test
    void verificationNeedsRealAndImaginaryPartOfEveryIteration() {
        for (ProblemClass c : ProblemClass.values()) {
            FtProblem p = FtProblem.of(c);
            double[] sums = referenceSums(p);
            assertTrue(p.verify(sums).accepted(), c.name());
            double[] nearly = sums.clone();
            nearly[2 * p.niter() + 1] *= 1.0 + 5e-13;
            assertTrue(p.verify(nearly).accepted(), c.name() + " within 1e-12");
            double[] imagOff = sums.clone();
            imagOff[2 * 3 + 1] *= 1.0 + 2e-12;     // only the imaginary part of iteration 3
            Verdict v = p.verify(imagOff);
            assertFalse(v.accepted(), c.name());
            assertTrue(v.reason().contains("cksum[3].im"), v.reason());
            double[] realNan = sums.clone();
            realNan[2 * p.niter()] = Double.NaN;
            assertFalse(p.verify(realNan).accepted(), c.name());
            assertFalse(p.verify(new double[4]).accepted(), c.name());
        }
    }

    @Test
    void classSizesAndOperationCountAreNpbs() {
        assertEquals("64x64x64", FtProblem.of(ProblemClass.S).sizeText());
        assertEquals("128x128x32", FtProblem.of(ProblemClass.W).sizeText());
        assertEquals("256x256x128", FtProblem.of(ProblemClass.A).sizeText());
        FtProblem b = FtProblem.of(ProblemClass.B);
        assertEquals("512x256x256", b.sizeText());
        assertEquals(20, b.niter());
        double n = 512.0 * 256 * 256;
        double ops = 1.0e-6 * n * (14.8157 + 7.19641 * Math.log(n) + (5.23518 + 7.21113 * Math.log(n)) * 20);
        assertEquals(ops / 2.0, b.mops(2.0), 1e-9 * ops);
    }

    @Test
    void unsupportedRankCountsAreRejected() {
        FtProblem s = FtProblem.of(ProblemClass.S);
        FtProblem w = FtProblem.of(ProblemClass.W);
        assertThrows(IllegalArgumentException.class, () -> FtKernel.checkRanks(s, 3, "S"));
        assertThrows(IllegalArgumentException.class, () -> FtKernel.checkRanks(s, 128, "S"));
        assertThrows(IllegalArgumentException.class, () -> FtKernel.checkRanks(w, 64, "W"));
        assertDoesNotThrow(() -> FtKernel.checkRanks(w, 32, "W"));
        assertDoesNotThrow(() -> FtKernel.checkRanks(s, 1, "S"));
    }

    @Test
    void classSVerifiesOnOneTwoAndFourThreadRanks() throws Exception {
        for (int np : new int[] {1, 2, 4}) {
            List<Integer> status = ThreadComm.run(np, comm -> {
                return KernelRuns.status(comm, new FtKernel(), TestNvm.settings(nvm, "ft" + comm.size()), CLASS_S);
            });
            int[] expected = new int[np];
            assertArrayEquals(expected, status.stream().mapToInt(Integer::intValue).toArray(), "np=" + np);
        }
    }

    // ---- crash and NVM restart, in-process ---------------------------------------------------------------------

    /** Result of one rank's run. */
    private record Run(int status, double[] sums, RecomputingRun.Outcome outcome) {
    }

    private List<Run> runClassS(int ranks, String job) throws Exception {
        return ThreadComm.run(ranks, comm -> {
            FtKernel kernel = new FtKernel();
            RecomputingRun.Outcome outcome = KernelRuns.outcome(comm, kernel, TestNvm.settings(nvm, job), CLASS_S);
            return new Run(outcome.verdict().accepted() ? 0 : 1, kernel.verifiedSums(), outcome);
        });
    }

    /** Thrown by {@link Crashing} where the simulated crash happens. */
    private static final class SimulatedCrash extends RuntimeException {
        SimulatedCrash() {
            super("simulated crash");
        }
    }

    /**
     * The kernel under EasyCrash, except that iteration {@code crashIteration} runs only its first
     * {@code regionsDone} regions and then "crashes": the exception leaves the heap closed but not released, with the
     * bookmark at that iteration, as a killed process leaves it.
     */
    private static final class Crashing extends DelegatingRecomputable {
        private final FtKernel kernel;
        private final int crashIteration;
        private final int regionsDone;

        Crashing(FtKernel kernel, int crashIteration, int regionsDone) {
            super(kernel);
            this.kernel = kernel;
            this.crashIteration = crashIteration;
            this.regionsDone = regionsDone;
        }

        @Override
        public void iterate(int iteration, EasyCrash easyCrash) {
            if (iteration == crashIteration) {
                kernel.iterate(iteration, easyCrash, regionsDone);
                throw new SimulatedCrash();
            }
            kernel.iterate(iteration, easyCrash);
        }
    }

    /** Runs class S on {@code ranks} thread ranks of job {@code job} until the simulated crash. */
    private void crashClassS(int ranks, String job, int iteration, int regionsDone) {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        assertThrows(SimulatedCrash.class, () -> ThreadComm.run(ranks, comm -> {
            FtKernel kernel = new FtKernel();
            kernel.prepare(comm, CLASS_S);
            return RecomputingRun.run(comm, new Crashing(kernel, iteration, regionsDone),
                    TestNvm.settings(nvm, job), null, new PrintStream(log, true, StandardCharsets.UTF_8));
        }));
        assertTrue(log.toString(StandardCharsets.UTF_8).contains("NVM start: fresh"), log::toString);
    }

    /**
     * A crash between iterations 3 and 4: the restart resumes at iteration 4 with u0 and the checksums of iterations
     * 1 to 3 from NVM, and verifies all six checksums, bit for bit those of the uninterrupted run.
     */
    @ParameterizedTest(name = "{0} thread ranks")
    @ValueSource(ints = {1, 2, 4})
    void restartAfterACrashBetweenIterationsKeepsEarlierChecksumsAndVerifies(int ranks) throws Exception {
        double[] uninterrupted = runClassS(ranks, "ft-whole" + ranks).get(0).sums();
        String job = "ft-crash" + ranks;
        crashClassS(ranks, job, 4, 0);
        for (Run run : runClassS(ranks, job)) {
            assertEquals(0, run.status());
            assertTrue(run.outcome().resumed(), "resumed from NVM");
            assertEquals(4, run.outcome().firstIteration());
            assertFalse(run.outcome().rolledBack());
            assertArrayEquals(Arrays.copyOfRange(uninterrupted, 2, uninterrupted.length),
                    Arrays.copyOfRange(run.sums(), 2, run.sums().length), "checksums of iterations 1 to 6");
        }
        assertFalse(runClassS(ranks, job).get(0).outcome().resumed(), "a finished run releases its NVM state");
    }

    /**
     * A crash inside iteration 3 after evolve (u0 already advanced one step in place), or after every region of it
     * (the bookmark still says 3): the restart evolves that step a second time, the checksums miss NPB's, and the run
     * rolls back and ends verified.
     */
    @ParameterizedTest(name = "{0} ranks, crash after {1} regions")
    @CsvSource({"1, 1", "2, 1", "2, 2", "1, 3"})
    void restartAfterEvolveHasRunRollsBackAndVerifies(int ranks, int regionsDone) throws Exception {
        String job = "ft-mid" + ranks + "-" + regionsDone;
        crashClassS(ranks, job, 3, regionsDone);
        for (Run run : runClassS(ranks, job)) {
            assertEquals(0, run.status(), "verified");
            assertTrue(run.outcome().rolledBack(), "rolled back");
            assertEquals(1, run.outcome().firstIteration());
        }
    }
}
