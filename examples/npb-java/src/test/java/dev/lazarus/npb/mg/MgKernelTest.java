package dev.lazarus.npb.mg;

import dev.lazarus.npb.testing.ThreadComm;
import dev.lazarus.npb.common.ProblemClass;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Whole class-S runs on in-process ranks: NPB's reference norm at every decomposition, and the argument checks. */
class MgKernelTest {

    /** Result of one rank's run. */
    private record Outcome(int status, double rnm2, double rnmu) {
    }

    private static List<Outcome> runClassS(int ranks) throws Exception {
        return ThreadComm.run(ranks, comm -> {
            MgKernel kernel = new MgKernel();
            int status = kernel.run(comm, new String[] {"--class", "S", "--quiet"});
            return new Outcome(status, kernel.rnm2(), kernel.rnmu());
        });
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
