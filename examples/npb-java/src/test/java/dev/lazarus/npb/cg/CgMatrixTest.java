package dev.lazarus.npb.cg;

import dev.lazarus.npb.common.NpbRandom;
import dev.lazarus.npb.common.ProblemClass;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CgMatrixTest {
    private static final CgParameters S = CgParameters.of(ProblemClass.S);
    private static CgMatrix whole;

    @BeforeAll
    static void generateClassS() {
        whole = CgMatrix.makea(S.na(), S.nonzer(), CgParameters.RCOND, S.shift(), 0, S.na());
    }

    @Test
    void sprnvcDrawsDistinctPositionsBelowN() {
        NpbRandom random = new NpbRandom(CgMatrix.TRAN);
        double[] v = new double[8];
        int[] iv = new int[8];
        for (int round = 0; round < 500; round++) {
            CgMatrix.sprnvc(1400, 7, 2048, v, iv, random);
            int[] positions = Arrays.copyOf(iv, 7);
            assertEquals(7, Arrays.stream(positions).distinct().count(), "positions " + Arrays.toString(positions));
            for (int k = 0; k < 7; k++) {
                assertTrue(positions[k] >= 0 && positions[k] < 1400, "position " + positions[k]);
                assertTrue(v[k] > 0.0 && v[k] < 1.0, "value " + v[k]);
            }
        }
    }

    @Test
    void sprnvcConsumesTwoDrawsPerCandidate() {
        NpbRandom random = new NpbRandom(CgMatrix.TRAN);
        double[] v = new double[1];
        int[] iv = new int[1];
        CgMatrix.sprnvc(1 << 20, 1, 1 << 20, v, iv, random); // n = nn1: the first candidate is always accepted
        NpbRandom check = new NpbRandom(CgMatrix.TRAN);
        double value = check.randlc(CgMatrix.AMULT);
        double location = check.randlc(CgMatrix.AMULT);
        assertEquals(value, v[0]);
        assertEquals((int) ((1 << 20) * location), iv[0]);
        assertEquals(check.seed(), random.seed());
    }

    @Test
    void vecsetOverwritesAnExistingPositionAndAppendsAMissingOne() {
        double[] v = {0.1, 0.2, 0.3, 0.0};
        int[] iv = {5, 9, 2, 0};
        assertEquals(3, CgMatrix.vecset(v, iv, 3, 9, 0.5));
        assertArrayEquals(new double[] {0.1, 0.5, 0.3, 0.0}, v);
        assertEquals(4, CgMatrix.vecset(v, iv, 3, 7, 0.5));
        assertEquals(7, iv[3]);
        assertEquals(0.5, v[3]);
    }

    @Test
    void rowsAreSortedAndHoldTheDiagonal() {
        for (int j = 0; j < whole.rows; j++) {
            boolean diagonal = false;
            for (int k = whole.rowstr[j]; k < whole.rowstr[j + 1]; k++) {
                if (k > whole.rowstr[j]) {
                    assertTrue(whole.colidx[k - 1] < whole.colidx[k], "row " + j + " not strictly ascending");
                }
                diagonal |= whole.colidx[k] == j;
            }
            assertTrue(diagonal, "row " + j + " has no diagonal entry");
        }
        int bound = S.na() * (S.nonzer() + 1) * (S.nonzer() + 1);
        assertTrue(whole.nonzeros() > S.na() * (S.nonzer() + 1) && whole.nonzeros() <= bound,
                "nonzeros=" + whole.nonzeros());
    }

    @Test
    void matrixIsSymmetricUpToRounding() {
        for (int j = 0; j < whole.rows; j++) {
            for (int k = whole.rowstr[j]; k < whole.rowstr[j + 1]; k++) {
                double mirror = entry(whole, whole.colidx[k], j);
                assertFalse(Double.isNaN(mirror), "(" + whole.colidx[k] + "," + j + ") missing");
                assertEquals(whole.a[k], mirror, 1e-13 * Math.max(1.0, Math.abs(whole.a[k])));
            }
        }
    }

    @Test
    void diagonalCarriesTheShift() {
        // Each diagonal entry is a sum of squares plus rcond - shift, so it lies above rcond - shift.
        for (int j = 0; j < whole.rows; j++) {
            double d = entry(whole, j, j);
            assertTrue(d > CgParameters.RCOND - S.shift() && d < CgParameters.RCOND - S.shift() + S.nonzer() + 2,
                    "a(" + j + "," + j + ")=" + d);
        }
    }

    @Test
    void rowBlocksMatchTheWholeMatrixBitForBit() {
        int[] starts = {0, 467, 934, 1400}; // uneven blocks, as with 3 ranks
        for (int b = 0; b + 1 < starts.length; b++) {
            int rows = starts[b + 1] - starts[b];
            CgMatrix block = CgMatrix.makea(S.na(), S.nonzer(), CgParameters.RCOND, S.shift(), starts[b], rows);
            for (int j = 0; j < rows; j++) {
                int g = starts[b] + j;
                assertArrayEquals(Arrays.copyOfRange(whole.colidx, whole.rowstr[g], whole.rowstr[g + 1]),
                        Arrays.copyOfRange(block.colidx, block.rowstr[j], block.rowstr[j + 1]), "row " + g);
                assertArrayEquals(Arrays.copyOfRange(whole.a, whole.rowstr[g], whole.rowstr[g + 1]),
                        Arrays.copyOfRange(block.a, block.rowstr[j], block.rowstr[j + 1]), "row " + g);
            }
        }
    }

    @Test
    void emptyBlockIsAllowedButRowsOutsideTheMatrixAreNot() {
        assertEquals(0, CgMatrix.makea(100, 3, 0.1, 1.0, 100, 0).nonzeros());
        assertThrows(IllegalArgumentException.class, () -> CgMatrix.makea(100, 3, 0.1, 1.0, 90, 11));
    }

    /** The entry at (row, col) of a whole matrix, NaN if not stored. */
    private static double entry(CgMatrix m, int row, int col) {
        int k = Arrays.binarySearch(m.colidx, m.rowstr[row], m.rowstr[row + 1], col);
        return k >= 0 ? m.a[k] : Double.NaN;
    }
}
