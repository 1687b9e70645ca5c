package dev.lazarus.npb.ep;

import dev.lazarus.npb.testing.ThreadComm;
import dev.lazarus.mpi.Comm;
import dev.lazarus.npb.common.NpbRandom;
import dev.lazarus.npb.common.ProblemClass;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EpKernelTest {

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
    void uniformsOfABatchContinueTheSequence() {
        EpKernel kernel = new EpKernel();
        kernel.setup(ProblemClass.S);
        kernel.findBatchSeed(1);
        kernel.generateUniforms();
        NpbRandom sequential = new NpbRandom(EpKernel.S);
        for (int i = 0; i < 2 * EpKernel.NK; i++) {
            sequential.randlc(EpKernel.A);
        }
        double[] expected = new double[2 * EpKernel.NK];
        sequential.vranlc(expected.length, EpKernel.A, expected, 0);
        assertArrayEquals(expected, kernel.x);
    }

    @Test
    void tallyAcceptsPairsInsideTheUnitDiscOnly() {
        EpKernel kernel = new EpKernel();
        kernel.setup(ProblemClass.S);
        // (0.99, 0.99) maps to (0.98, 0.98): outside the unit disc, rejected.
        Arrays.fill(kernel.x, 0.99);
        // (0.75, 0.5) maps to (0.5, 0): t1 = 0.25, deviate X = 0.5 * sqrt(8 ln 4), Y = 0.
        kernel.x[0] = 0.75;
        kernel.x[1] = 0.5;
        // (0.25, 0.875) maps to (-0.5, 0.75): t1 = 0.8125.
        kernel.x[2] = 0.25;
        kernel.x[3] = 0.875;
        kernel.tallyGaussianPairs();
        kernel.sumCounts();

        double first = 0.5 * Math.sqrt(8.0 * Math.log(4.0));
        double t2 = Math.sqrt(-2.0 * Math.log(0.8125) / 0.8125);
        assertEquals(2.0, kernel.gc);
        assertEquals(first + 0.5 * t2, kernel.sx, 1e-15);
        assertEquals(0.75 * t2, kernel.sy, 1e-15);
        assertEquals(first - 0.5 * t2, kernel.sxSigned, 1e-15);
        assertEquals(0.75 * t2, kernel.sySigned, 1e-15);
        double[] expectedCounts = new double[EpKernel.NQ];
        expectedCounts[(int) first] += 1.0;
        expectedCounts[(int) (0.75 * t2)] += 1.0;
        assertArrayEquals(expectedCounts, kernel.q);
    }

    @Test
    void classSSplitLikeTwoRanksVerifiesAndMatchesNpbCounts() {
        EpKernel low = new EpKernel();
        low.setup(ProblemClass.S);
        EpKernel high = new EpKernel();
        high.setup(ProblemClass.S);
        long nn = low.batches();
        assertEquals(256, nn);
        for (long k = 0; k < nn; k++) {
            EpKernel part = k < 100 ? low : high;
            part.findBatchSeed(k);
            part.generateUniforms();
            part.tallyGaussianPairs();
        }
        // Combine the two "ranks" the way reduceSums does.
        low.sx += high.sx;
        low.sy += high.sy;
        low.sxSigned += high.sxSigned;
        low.sySigned += high.sySigned;
        for (int i = 0; i < EpKernel.NQ; i++) {
            low.q[i] += high.q[i];
        }
        low.sumCounts();

        assertTrue(low.verify().accepted(), low.verify().reason());
        // Counts printed by NPB 3.3.1 for class S.
        assertArrayEquals(new double[] {6140517, 5865300, 1100361, 68546, 1648, 17, 0, 0, 0, 0}, low.q);
    }

    @Test
    void classSOnThreeRanksSplitsTheBatchesUnevenlyAndVerifies() throws Exception {
        List<Integer> status = ThreadComm.run(3, comm -> new EpKernel().run(comm,
                new String[] {"--class", "S", "--quiet"}));
        assertEquals(List.of(0, 0, 0), status);
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
        assertTrue(ref.verify(ref.sxRef(), ref.syRef(), ref.gcRef(), ref.sxSignedRef(), ref.sySignedRef())
                .accepted());
        assertFalse(ref.verify(ref.sxRef() * (1 + 2e-8), ref.syRef(), ref.gcRef(), ref.sxSignedRef(),
                ref.sySignedRef()).accepted());
        assertFalse(ref.verify(ref.sxRef(), ref.syRef(), ref.gcRef() + 1, ref.sxSignedRef(),
                ref.sySignedRef()).accepted());
        assertFalse(ref.verify(ref.sxRef(), ref.syRef(), ref.gcRef(), ref.sxSignedRef(),
                -ref.sySignedRef()).accepted());
        assertFalse(ref.verify(Double.NaN, ref.syRef(), ref.gcRef(), ref.sxSignedRef(),
                ref.sySignedRef()).accepted());
    }

    @Test
    void classSizesFollowNpb() {
        assertEquals(24, EpKernel.classM(ProblemClass.S));
        assertEquals(25, EpKernel.classM(ProblemClass.W));
        assertEquals(28, EpKernel.classM(ProblemClass.A));
        assertEquals(30, EpKernel.classM(ProblemClass.B));
    }
}
