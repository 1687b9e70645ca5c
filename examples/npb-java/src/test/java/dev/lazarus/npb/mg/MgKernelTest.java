package dev.lazarus.npb.mg;

import dev.lazarus.easycrash.EasyCrash;
import dev.lazarus.easycrash.RecomputingRun;
import dev.lazarus.npb.testing.DelegatingRecomputable;
import dev.lazarus.npb.testing.KernelRuns;
import dev.lazarus.npb.testing.TestNvm;
import dev.lazarus.mpi.testing.ThreadComm;
import dev.lazarus.npb.common.ProblemClass;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whole class-S runs on in-process ranks: NPB's reference norm at every decomposition, the argument checks, and
 * crashes simulated in-process followed by an NVM restart of the same job.
 */
class MgKernelTest {
    private static final String[] CLASS_S = {"--class", "S", "--quiet"};

    @TempDir
    Path nvm;

    /** Result of one rank's run. */
    private record Outcome(int status, double rnm2, double rnmu, RecomputingRun.Outcome run) {
    }

    private List<Outcome> runClassS(int ranks) throws Exception {
        return runClassS(ranks, "mg" + ranks);
    }

    private List<Outcome> runClassS(int ranks, String job) throws Exception {
        return ThreadComm.run(ranks, comm -> {
            MgKernel kernel = new MgKernel();
            RecomputingRun.Outcome outcome = KernelRuns.outcome(comm, kernel, TestNvm.settings(nvm, job), CLASS_S);
            return new Outcome(outcome.verdict().accepted() ? 0 : 1, kernel.rnm2(), kernel.rnmu(), outcome);
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
        private final MgKernel kernel;
        private final int crashIteration;
        private final int regionsDone;

        Crashing(MgKernel kernel, int crashIteration, int regionsDone) {
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
            MgKernel kernel = new MgKernel();
            kernel.prepare(comm, CLASS_S);
            return RecomputingRun.run(comm, new Crashing(kernel, iteration, regionsDone),
                    TestNvm.settings(nvm, job), null, new PrintStream(log, true, StandardCharsets.UTF_8));
        }));
        assertTrue(log.toString(StandardCharsets.UTF_8).contains("NVM start: fresh"), log::toString);
    }

    /**
     * A crash between iterations (the bookmark says iteration 3, u holds the end of iteration 2 and r is recomputed
     * from it): the restart resumes at iteration 3 and reproduces the uninterrupted run's norm bit for bit.
     */
    @ParameterizedTest(name = "{0} thread ranks")
    @ValueSource(ints = {1, 2, 4})
    void restartAfterACrashBetweenIterationsResumesAndVerifies(int ranks) throws Exception {
        Outcome uninterrupted = runClassS(ranks, "mg-whole" + ranks).get(0);
        String job = "mg-crash" + ranks;
        crashClassS(ranks, job, 3, 0);
        for (Outcome o : runClassS(ranks, job)) {
            assertEquals(0, o.status());
            assertTrue(o.run().resumed(), "resumed from NVM");
            assertEquals(3, o.run().firstIteration());
            assertFalse(o.run().rolledBack());
            assertEquals(uninterrupted.rnm2(), o.rnm2(), 0.0, "rnm2 as without the crash");
            assertEquals(uninterrupted.rnmu(), o.rnmu(), 0.0, "rnmu as without the crash");
        }
        assertFalse(runClassS(ranks, job).get(0).run().resumed(), "a finished run releases its NVM state");
    }

    /**
     * Crashes inside iteration 2. Through region 4 (resid, restrictResidual, solveCoarsest, prolongateAndSmooth) only r
     * and the coarse levels have changed, and the restart recomputes them from u: it resumes and reproduces the
     * uninterrupted run's norm bit for bit. After region 5 (correctFinest) u already holds this iteration's
     * correction: the restarted iteration corrects u a second time, the norm misses NPB's by far, and the job rolls
     * back and ends verified. With NPB's order (resid last) a crash after region 4 was the second case.
     */
    @ParameterizedTest(name = "{0} ranks, crash after {1} regions")
    @CsvSource({"1, 1", "2, 3", "1, 4", "2, 4", "1, 5", "2, 5"})
    void restartAfterACrashInsideAnIterationEndsVerified(int ranks, int regionsDone) throws Exception {
        Outcome uninterrupted = runClassS(ranks, "mg-mid-whole" + ranks).get(0);
        String job = "mg-mid" + ranks + "-" + regionsDone;
        crashClassS(ranks, job, 2, regionsDone);
        for (Outcome o : runClassS(ranks, job)) {
            assertEquals(0, o.status(), "verified");
            if (regionsDone <= 4) {
                assertTrue(o.run().resumed(), "u untouched: the restart verifies");
                assertFalse(o.run().rolledBack());
                assertEquals(2, o.run().firstIteration());
                assertEquals(uninterrupted.rnm2(), o.rnm2(), 0.0, "rnm2 as without the crash");
            } else {
                assertTrue(o.run().rolledBack(), "u corrected twice: the restart fails and rolls back");
                assertEquals(1, o.run().firstIteration());
            }
        }
    }

    @Test
    void serialClassSMatchesNpbReference() throws Exception {
        Outcome serial = runClassS(1).get(0);
        assertEquals(0, serial.status());
        assertEquals(0.5307707005734e-04, serial.rnm2(), 0.5307707005734e-04 * 1e-12);
    }

    /**
     * 2 and 4 ranks keep every level distributed or switch at level 2; 8 and 32 ranks run the finest levels with
     * one plane per rank and replicate the rest. All must agree with the serial norm to rounding.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 4, 8, 32})
    void decompositionsAgreeWithSerial(int ranks) throws Exception {
        Outcome serial = runClassS(1).get(0);
        List<Outcome> outcomes = runClassS(ranks);
        for (Outcome o : outcomes) {
            assertEquals(0, o.status(), "verification on " + ranks + " ranks");
            assertEquals(serial.rnm2(), o.rnm2(), serial.rnm2() * 1e-12, "rnm2 on " + ranks + " ranks");
            assertEquals(serial.rnmu(), o.rnmu(), 0.0, "max norm is reduction-order free");
        }
    }

    @Test
    void rejectsUnsupportedRankCounts() {
        assertThrows(IllegalArgumentException.class, () -> new MgGrid(32, 3, 0));
        assertThrows(IllegalArgumentException.class, () -> new MgGrid(32, 64, 0));
        assertThrows(IllegalArgumentException.class, () -> new MgGrid(32, 0, 0));
    }

    @Test
    void rejectsUnknownArgument() {
        assertThrows(IllegalArgumentException.class,
                () -> ThreadComm.run(1, comm -> new MgKernel().run(comm, new String[] {"--bogus"})));
    }

    @Test
    void verificationRejectsPerturbedNorm() {
        MgParameters s = MgParameters.of(ProblemClass.S);
        assertTrue(s.verify(0.5307707005734e-04).accepted());
        assertTrue(s.verify(0.5307707005734e-04 * (1 + 5e-9)).accepted());
        assertFalse(s.verify(0.5307707005734e-04 * (1 + 2e-8)).accepted());
        assertFalse(s.verify(Double.NaN).accepted());
    }

    @Test
    void classParametersFollowNpb34() {
        MgParameters w = MgParameters.of(ProblemClass.W);
        assertEquals(128, w.nx());
        assertEquals(4, w.nit());
        assertEquals(-3.0 / 8.0, w.c()[0]);
        MgParameters b = MgParameters.of(ProblemClass.B);
        assertEquals(256, b.nx());
        assertEquals(20, b.nit());
        assertEquals(-3.0 / 17.0, b.c()[0]);
        assertEquals(8, b.lt());
    }
}
