package dev.lazarus.npb.ft;

import dev.lazarus.npb.testing.ThreadComm;
import dev.lazarus.npb.common.NpbRandom;
import dev.lazarus.npb.common.ProblemClass;
import dev.lazarus.verification.Verdict;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FtKernelTest {
    private static final FtProblem SMALL = new FtProblem(4, 8, 16, 1, new double[] {1.0}, new double[] {1.0});

    @Test
    void everyRanksJumpAheadContinuesTheSequentialStream() {
        int total = 2 * SMALL.nx() * SMALL.ny() * SMALL.nz();
        double[] stream = new double[total];
        new NpbRandom(FtKernel.SEED).vranlc(total, NpbRandom.A, stream, 0);
        for (int np : new int[] {1, 2, 4, 8, 16}) {
            int chunk = total / np;
            for (int r = 0; r < np; r++) {
                double[] slab = new double[chunk];
                FtKernel.computeInitialConditions(slab, SMALL, r, np);
                for (int i = 0; i < chunk; i++) {
                    assertEquals(stream[r * chunk + i], slab[i], 0.0, "np=" + np + " rank=" + r + " i=" + i);
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
            double[] t = new double[nx * ny * nz / np];
            FtKernel.computeTwiddle(t, SMALL, r, np);
            for (int jl = 0; jl < nyl; jl++) {
                int y = r * nyl + jl;
                int ky = y < ny / 2 ? y : y - ny;
                for (int x = 0; x < nx; x++) {
                    int kx = x < nx / 2 ? x : x - nx;
                    for (int z = 0; z < nz; z++) {
                        int kz = z < nz / 2 ? z : z - nz;
                        double expected = Math.exp(ap * (kx * kx + ky * ky + kz * kz));
                        assertEquals(expected, t[z + nz * (x + nx * jl)], 0.0);
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
        FtKernel.localChecksum(grid, s, 0, 1, whole);
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
            double[] slab = new double[grid.length / np];
            System.arraycopy(grid, r * slab.length, slab, 0, slab.length);
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
                try {
                    return new FtKernel().run(comm, new String[] {"--class", "S", "--quiet"});
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            int[] expected = new int[np];
            assertArrayEquals(expected, status.stream().mapToInt(Integer::intValue).toArray(), "np=" + np);
        }
    }
}
