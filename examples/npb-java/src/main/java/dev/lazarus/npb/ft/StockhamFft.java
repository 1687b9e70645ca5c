package dev.lazarus.npb.ft;

/**
 * Radix-2 Stockham FFT of a batch of {@code b} equally long complex lines at once, the variant NPB FT uses
 * (Swarztrauber's, as in NPB's {@code cfftz}/{@code fftz2}).
 *
 * <p>A batch is stored line-interleaved: element {@code i} of line {@code j} is the complex number at doubles
 * {@code 2*(i*b + j)} (real) and {@code 2*(i*b + j) + 1} (imaginary). Processing {@code b} lines together makes
 * every butterfly a contiguous run of {@code 2*b} doubles, which is why the caller copies blocks of lines in.
 *
 * <p>With {@code sign = +1} the transform is {@code X[k] = sum_j x[j] exp(+2 pi i jk/n)}, with {@code sign = -1}
 * the same with {@code exp(-2 pi i jk/n)}; neither is normalized, so applying one after the other multiplies by
 * {@code n}. Output is in natural order (Stockham needs no bit reversal).
 */
public final class StockhamFft {
    /** Roots of unity: for every power of two {@code li < maxN}, complex {@code li + i} is exp(i pi i / li). */
    private final double[] roots;
    private final int maxN;

    /**
     * Precomputes the roots of unity for lengths up to {@code maxN}.
     *
     * @param maxN the longest line length, a power of two {@code >= 1}
     * @throws IllegalArgumentException if {@code maxN} is not a power of two
     */
    public StockhamFft(int maxN) {
        if (maxN < 1 || Integer.bitCount(maxN) != 1) {
            throw new IllegalArgumentException("FFT length=" + maxN + " must be a power of two");
        }
        this.maxN = maxN;
        this.roots = new double[2 * Math.max(2, maxN)];
        // Each root from its own angle (not by recurrence): keeps every root within an ulp, which the 1e-12
        // verification of FT needs after 20 forward/inverse round trips.
        for (int li = 1; li < maxN; li <<= 1) {
            double t = Math.PI / li;
            for (int i = 0; i < li; i++) {
                double angle = i * t;
                roots[2 * (li + i)] = Math.cos(angle);
                roots[2 * (li + i) + 1] = Math.sin(angle);
            }
        }
    }

    /** The longest line length this instance supports. */
    public int maxLength() {
        return maxN;
    }

    /**
     * Transforms {@code b} lines of length {@code n} held line-interleaved in {@code x}, using {@code y} as the
     * other Stockham buffer. Both buffers need at least {@code 2*n*b} doubles; both are overwritten.
     *
     * @param sign +1 or -1, the sign of the exponent
     * @return the buffer ({@code x} or {@code y}) that holds the result
     */
    public double[] transform(int sign, int n, int b, double[] x, double[] y) {
        if ((sign != 1 && sign != -1) || n < 1 || n > maxN || Integer.bitCount(n) != 1 || b < 1) {
            throw new IllegalArgumentException("sign=" + sign + " n=" + n + " b=" + b + " (maxN=" + maxN + ")");
        }
        int m = Integer.numberOfTrailingZeros(n);
        double[] in = x;
        double[] out = y;
        for (int l = 1; l <= m; l++) {
            pass(sign, l, m, n, b, in, out);
            double[] t = in;
            in = out;
            out = t;
        }
        return in;
    }

    /** The l-th Stockham stage: reads {@code in}, writes {@code out} (NPB's fftz2). */
    private void pass(int sign, int l, int m, int n, int b, double[] in, double[] out) {
        int lk = 1 << (l - 1);
        int li = 1 << (m - l);
        int run = 2 * lk * b;           // doubles in one contiguous butterfly run
        int half = n * b;               // doubles in half of the batch (n/2 complex per line)
        for (int i = 0; i < li; i++) {
            int i11 = i * run;
            int i12 = i11 + half;
            int i21 = 2 * i * run;
            int i22 = i21 + run;
            double ur = roots[2 * (li + i)];
            double ui = sign * roots[2 * (li + i) + 1];
            for (int t = 0; t < run; t += 2) {
                double ar = in[i11 + t];
                double ai = in[i11 + t + 1];
                double br = in[i12 + t];
                double bi = in[i12 + t + 1];
                out[i21 + t] = ar + br;
                out[i21 + t + 1] = ai + bi;
                double dr = ar - br;
                double di = ai - bi;
                out[i22 + t] = ur * dr - ui * di;
                out[i22 + t + 1] = ur * di + ui * dr;
            }
        }
    }
}
