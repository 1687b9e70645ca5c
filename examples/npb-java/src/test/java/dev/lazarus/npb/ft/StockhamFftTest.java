package dev.lazarus.npb.ft;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StockhamFftTest {

    /** Naive O(n^2) DFT of one line with exponent sign {@code sign}, angles reduced mod n for accuracy. */
    static double[] naiveDft(double[] x, int sign) {
        int n = x.length / 2;
        double[] out = new double[2 * n];
        for (int k = 0; k < n; k++) {
            double re = 0.0;
            double im = 0.0;
            for (int j = 0; j < n; j++) {
                double angle = sign * 2.0 * Math.PI * (((long) j * k) % n) / n;
                double c = Math.cos(angle);
                double s = Math.sin(angle);
                re += x[2 * j] * c - x[2 * j + 1] * s;
                im += x[2 * j] * s + x[2 * j + 1] * c;
            }
            out[2 * k] = re;
            out[2 * k + 1] = im;
        }
        return out;
    }

    private static double[] randomLine(Random random, int n) {
        double[] x = new double[2 * n];
        for (int i = 0; i < x.length; i++) {
            x[i] = random.nextDouble() - 0.5;
        }
        return x;
    }

    private static double norm(double[] x) {
        double s = 0.0;
        for (double v : x) {
            s += v * v;
        }
        return Math.sqrt(s);
    }

    @Test
    void matchesNaiveDftForEveryLengthSignAndBatch() {
        Random random = new Random(42);
        StockhamFft fft = new StockhamFft(512);
        for (int n = 1; n <= 512; n *= 2) {
            for (int b : new int[] {1, 3, 16}) {
                for (int sign : new int[] {1, -1}) {
                    double[][] lines = new double[b][];
                    double[] x = new double[2 * n * b];
                    for (int j = 0; j < b; j++) {
                        lines[j] = randomLine(random, n);
                        for (int i = 0; i < n; i++) {
                            x[2 * (i * b + j)] = lines[j][2 * i];
                            x[2 * (i * b + j) + 1] = lines[j][2 * i + 1];
                        }
                    }
                    double[] r = fft.transform(sign, n, b, x, new double[2 * n * b]);
                    for (int j = 0; j < b; j++) {
                        double[] expected = naiveDft(lines[j], sign);
                        double maxErr = 0.0;
                        for (int i = 0; i < n; i++) {
                            maxErr = Math.max(maxErr, Math.abs(r[2 * (i * b + j)] - expected[2 * i]));
                            maxErr = Math.max(maxErr, Math.abs(r[2 * (i * b + j) + 1] - expected[2 * i + 1]));
                        }
                        // FFT error grows like eps*log2(n) relative to the norm; the naive DFT's own error is larger.
                        assertTrue(maxErr <= 1e-14 * norm(expected), "n=" + n + " b=" + b + " sign=" + sign
                                + " maxErr=" + maxErr + " norm=" + norm(expected));
                    }
                }
            }
        }
    }

    @Test
    void inverseOfForwardIsNTimesInput() {
        Random random = new Random(7);
        int n = 1024;
        int b = 4;
        StockhamFft fft = new StockhamFft(n);
        double[] x = randomLine(random, n * b);
        double[] original = x.clone();
        double[] y = new double[x.length];
        double[] f = fft.transform(1, n, b, x, y);
        double[] other = f == x ? y : x;
        double[] back = fft.transform(-1, n, b, f, other);
        for (int i = 0; i < original.length; i++) {
            assertEquals(original[i], back[i] / n, 1e-15, "index " + i);
        }
    }

    @Test
    void impulseGivesExactRootsOfUnity() {
        int n = 8;
        StockhamFft fft = new StockhamFft(n);
        double[] x = new double[2 * n];
        x[2] = 1.0;     // delta at j = 1: X[k] = exp(+2 pi i k/n)
        double[] r = fft.transform(1, n, 1, x, new double[2 * n]);
        for (int k = 0; k < n; k++) {
            assertEquals(Math.cos(2 * Math.PI * k / n), r[2 * k], 1e-15);
            assertEquals(Math.sin(2 * Math.PI * k / n), r[2 * k + 1], 1e-15);
        }
    }

    @Test
    void lengthOneIsIdentityAndReturnsInput() {
        StockhamFft fft = new StockhamFft(4);
        double[] x = {3.0, -2.0};
        assertSame(x, fft.transform(-1, 1, 1, x, new double[2]));
        assertEquals(3.0, x[0]);
        assertEquals(-2.0, x[1]);
    }

    @Test
    void rejectsBadArguments() {
        assertThrows(IllegalArgumentException.class, () -> new StockhamFft(12));
        StockhamFft fft = new StockhamFft(16);
        assertThrows(IllegalArgumentException.class, () -> fft.transform(1, 32, 1, new double[64], new double[64]));
        assertThrows(IllegalArgumentException.class, () -> fft.transform(1, 6, 1, new double[12], new double[12]));
        assertThrows(IllegalArgumentException.class, () -> fft.transform(0, 8, 1, new double[16], new double[16]));
    }
}
