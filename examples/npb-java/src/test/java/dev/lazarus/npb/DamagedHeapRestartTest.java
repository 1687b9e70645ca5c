package dev.lazarus.npb;

import dev.lazarus.easycrash.DoubleArray;
import dev.lazarus.easycrash.RecomputableApplication;
import dev.lazarus.npb.cg.CgKernel;
import dev.lazarus.npb.ep.EpKernel;
import dev.lazarus.npb.ft.FtKernel;
import dev.lazarus.npb.heat.HeatKernel;
import dev.lazarus.npb.is.IsKernel;
import dev.lazarus.npb.mg.MgKernel;
import dev.lazarus.npb.testing.DamagedRestart;
import dev.lazarus.npb.testing.DamagedRestart.Damage;
import dev.lazarus.npb.testing.DamagedRestart.Relaunch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

import static dev.lazarus.npb.testing.DamagedRestart.flipByte;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Recovery invariant 1: a resumed run whose heap holds a changed value must not be accepted unless its result is the
 * right one. Each application crashes between two iterations at class S on two thread ranks, one byte of one element
 * of a candidate object is flipped (a value the heap's own checks cannot tell from a good one), and the relaunch
 * resumes from NVM. The run with the heap left intact must be accepted, so the rejections are the checks' doing.
 */
class DamagedHeapRestartTest {
    private static final String[] CLASS_S = {"--class", "S", "--quiet"};
    private static final int RANKS = 2;
    /** XOR on a double's highest byte: flips the exponent's top bit, so the value becomes huge or tiny. */
    private static final int HIGH_BYTE = 7;
    private static final int EXPONENT_TOP = 0x40;

    @TempDir
    Path nvm;

    private List<Relaunch> crashAndRelaunch(String job, Supplier<RecomputableApplication> app, int crashIteration,
                                            int damagedRank, Damage damage) throws Exception {
        return DamagedRestart.run(nvm, job, RANKS, app, CLASS_S, crashIteration, damagedRank, damage);
    }

    /** Every rank's resumed run was accepted, and the relaunch ended there (no rollback). */
    private static void assertResumedAndAccepted(List<Relaunch> relaunch) {
        for (Relaunch rank : relaunch) {
            assertTrue(rank.resumedVerdict().accepted(), rank.resumedVerdict().reason());
            assertTrue(rank.outcome().resumed() && !rank.outcome().rolledBack(), rank.outcome().toString());
        }
    }

    /**
     * Every rank's resumed run was rejected with a reason containing {@code because}; the relaunch rolled back and
     * verified.
     */
    private static void assertRejectedThenRolledBack(List<Relaunch> relaunch, String because) {
        for (Relaunch rank : relaunch) {
            assertFalse(rank.resumedVerdict().accepted(), rank.resumedVerdict().reason());
            assertTrue(rank.resumedVerdict().reason().contains(because), rank.resumedVerdict().reason());
            assertTrue(rank.outcome().rolledBack(), rank.outcome().toString());
            assertTrue(rank.outcome().verdict().accepted(), rank.outcome().verdict().reason());
        }
    }

    private static long highByteOf(int element) {
        return 8L * element + HIGH_BYTE;
    }

    @Test
    void isRejectsAResumedRunThatSortedAKeyChangedInNvm() throws Exception {
        assertResumedAndAccepted(crashAndRelaunch("is-intact", IsKernel::new, 5, 1, DamagedRestart.NONE));
        // Key 1000 of rank 1 moves by at most 7 and stays a valid key: it still sorts, and it crosses no test key.
        List<Relaunch> relaunch = crashAndRelaunch("is-flipped", IsKernel::new, 5, 1,
                flipByte("keyArray", 4 * 1000, 7));
        assertRejectedThenRolledBack(relaunch, "key fingerprint of the sorted keys");
        assertTrue(relaunch.getFirst().resumedVerdict().reason().startsWith("partial 50/50 passed (0 failed); full:"
                + " sorted on 2/2 ranks, 65536/65536 keys"), "NPB's own checks cannot see the key: "
                + relaunch.getFirst().resumedVerdict().reason());
    }

    /**
     * Position 3 of rank 0 holds the key iteration 3 planted. Every iteration plants all twenty positions again (see
     * IsKernel.alterKeys), so the resumed run sorts exactly the benchmark's keys, and the fingerprint, which counts the
     * planted keys, accepts it.
     */
    @Test
    void isReplantsAPlantedKeyChangedInNvmAndAcceptsTheRightKeys() throws Exception {
        List<Relaunch> relaunch = crashAndRelaunch("is-planted", IsKernel::new, 5, 0, flipByte("keyArray", 4 * 3, 4));
        assertResumedAndAccepted(relaunch);
        assertTrue(relaunch.getFirst().resumedVerdict().reason().contains("matches the generated keys"),
                relaunch.getFirst().resumedVerdict().reason());
    }

    @Test
    void epRejectsACountChangedInNvm() throws Exception {
        assertResumedAndAccepted(crashAndRelaunch("ep-intact", EpKernel::new, 60, 0, DamagedRestart.NONE));
        // The restart at batch 60 starts from slot 59. After 59 batches rank 0's q[1] is about 1.35e6 (2^20 to
        // 2^21): bit 4 of byte 3 is worth 1/16. The count is no longer a whole number, yet gc moves by 4.7e-9
        // relative, within NPB's 1e-8.
        assertRejectedThenRolledBack(crashAndRelaunch("ep-flipped", EpKernel::new, 60, 0,
                flipByte("tallies", 8 * (59 * EpKernel.TALLY + EpKernel.COUNTS + 1) + 3, 0x10)),
                "q[1]=5865300.0625 reference=5865300");
    }

    @Test
    void epRejectsAPairCountedInTheWrongAnnulus() throws Exception {
        Damage moved = objects -> { // in slot 59, where the restart at batch 60 starts from
            DoubleArray tallies = (DoubleArray) objects.get("tallies");
            int q = 59 * EpKernel.TALLY + EpKernel.COUNTS;
            tallies.set(q + 1, tallies.get(q + 1) - 1);
            tallies.set(q + 2, tallies.get(q + 2) + 1);
        };
        // gc, sx and sy are unchanged: only a check of every count sees it.
        assertRejectedThenRolledBack(crashAndRelaunch("ep-moved", EpKernel::new, 60, 1, moved), "q[1]");
    }

    /** Element 0 of rank 0 is the real part of the constant mode, which every checksum point sees. */
    @Test
    void ftRejectsASpectrumValueTheChecksumsSeeChangedInNvm() throws Exception {
        assertResumedAndAccepted(crashAndRelaunch("ft-intact", FtKernel::new, 3, 0, DamagedRestart.NONE));
        assertRejectedThenRolledBack(crashAndRelaunch("ft-flipped", FtKernel::new, 3, 0,
                flipByte("u0", HIGH_BYTE, EXPONENT_TOP)), "cksum[3]");
    }

    /**
     * NPB's checksum adds u at the points (j, 3j, 5j) mod 64, j = 1..1024, so of the spectrum it sees only the modes
     * with kx + 3ky + 5kz = 0 (mod 64), and the evolution never mixes modes: a changed value of any other mode leaves
     * every checksum, FT's whole reported result, as in the uninterrupted run up to the FFT's rounding (here from
     * -88.6 to 5e-307, and the worst relative error of the twelve checksums moves from 1.287e-13 to 1.293e-13). The
     * run is accepted, rightly for what FT reports; the field itself is not the uninterrupted run's (README).
     */
    @Test
    void ftAcceptsASpectrumValueNoChecksumSeesBecauseItsChecksumsAreRight() throws Exception {
        assertResumedAndAccepted(crashAndRelaunch("ft-unseen", FtKernel::new, 3, 1,
                flipByte("u0", highByteOf(2000), EXPONENT_TOP)));
    }

    @Test
    void mgRejectsASolutionValueChangedInNvm() throws Exception {
        assertResumedAndAccepted(crashAndRelaunch("mg-intact", MgKernel::new, 3, 0, DamagedRestart.NONE));
        assertRejectedThenRolledBack(crashAndRelaunch("mg-flipped", MgKernel::new, 3, 1,
                flipByte("u", highByteOf(20000), EXPONENT_TOP)), "rnm2=");
    }

    @Test
    void heatRejectsASolutionValueChangedInNvm() throws Exception {
        assertResumedAndAccepted(crashAndRelaunch("heat-intact", HeatKernel::new, 100, 0, DamagedRestart.NONE));
        // Interior point (row 10, column 20 of a 66-wide row) of rank 1.
        assertRejectedThenRolledBack(crashAndRelaunch("heat-flipped", HeatKernel::new, 100, 1,
                flipByte("u", highByteOf(10 * 66 + 20), EXPONENT_TOP)), "residual");
    }

    @Test
    void heatRejectsABoundaryValueChangedInNvm() throws Exception {
        // Column 0 of row 10 is boundary, 0.0; the flip makes it 2^-15. The sweeps then converge to the solution of
        // another problem, whose residual is as small and whose error stays within the discretization bound.
        assertRejectedThenRolledBack(crashAndRelaunch("heat-boundary", HeatKernel::new, 100, 1,
                flipByte("u", highByteOf(10 * 66), 0x3F)), "boundary");
    }

    @Test
    void cgResumedWithAChangedEigenvectorEstimateConvergesAgainToNpbsZeta() throws Exception {
        assertResumedAndAccepted(crashAndRelaunch("cg-intact", CgKernel::new, 5, 0, DamagedRestart.NONE));
        List<Relaunch> relaunch = crashAndRelaunch("cg-flipped", CgKernel::new, 5, 1,
                flipByte("x", highByteOf(1000), 0x10));
        assertResumedAndAccepted(relaunch);
        assertEquals(relaunch.getFirst().resumedVerdict(), relaunch.getLast().resumedVerdict());
    }
}
