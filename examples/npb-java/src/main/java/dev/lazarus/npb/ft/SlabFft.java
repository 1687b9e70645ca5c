package dev.lazarus.npb.ft;

import dev.lazarus.easycrash.DoubleArray;

/**
 * Distributed 3D FFT over a 1D slab decomposition with one global transpose, NPB FT's "1D layout".
 *
 * <p>Two local layouts of an {@code nx * ny * nz} complex grid on {@code np} ranks, both interleaved (re, im):
 * <ul>
 *   <li><b>xyz</b>: shape {@code (nx, ny, nz/np)}, x fastest; this rank holds z-planes
 *       {@code [rank*nz/np, (rank+1)*nz/np)}. Complex {@code (x, y, zl)} is at {@code x + nx*(y + ny*zl)}.</li>
 *   <li><b>zxy</b>: shape {@code (nz, nx, ny/np)}, z fastest; this rank holds y-rows
 *       {@code [rank*ny/np, (rank+1)*ny/np)}. Complex {@code (z, x, yl)} is at {@code z + nz*(x + nx*yl)}.</li>
 * </ul>
 * The forward transform takes xyz to zxy (x and y FFTs, transpose, z FFT); the inverse takes zxy back to xyz.
 * Neither normalizes. The transpose is a local transpose, one all-to-all and a local reorder, as NPB does; it uses
 * the input array as the all-to-all receive buffer, so <b>the input array is overwritten</b> (NPB's {@code fft(dir,
 * x1, x2)} contract), which keeps FT at three full-size complex arrays.
 *
 * <p>The grids are {@link DoubleArray} objects (persistent heap, or plain arrays with EasyCrash off); the line FFTs
 * themselves run on two small plain scratch arrays ({@link StockhamFft}), into which blocks of lines are copied: x and
 * z lines element by element ({@code a.get(line, i, 2)}, the form in which the JIT checks bounds once per loop), y
 * lines, whose blocks are runs of {@code 2 * BLOCK} contiguous doubles, by the bulk copies.
 */
public final class SlabFft {

    /** The all-to-all a transpose needs: block {@code p} of {@code count} doubles from send goes to rank p. */
    @FunctionalInterface
    public interface Exchange {
        /** Sends doubles {@code [p*count, (p+1)*count)} of send to rank p, receiving rank p's block at p*count. */
        void allToAll(DoubleArray send, DoubleArray recv, int count);
    }

    /** Lines transformed together; NPB's fftblock. */
    private static final int BLOCK = 16;
    /** Tile edge of the blocked local transpose, in complex elements. */
    private static final int TILE = 32;

    private final int nx;
    private final int ny;
    private final int nz;
    private final int np;
    private final int nzl;
    private final int nyl;
    private final Exchange exchange;
    private final StockhamFft fft;
    private final double[] scratch0;
    private final double[] scratch1;
    /** A transpose tile, {@code TILE x TILE} complex, row {@code r} holding output row {@code i0 + r}. */
    private final double[] tile = new double[2 * TILE * TILE];

    /**
     * @param nx       grid size in x, a power of two
     * @param ny       grid size in y, a power of two divisible by {@code np}
     * @param nz       grid size in z, a power of two divisible by {@code np}
     * @param np       number of ranks
     * @param exchange the all-to-all among the ranks; unused when {@code np == 1}
     * @throws IllegalArgumentException if the sizes and rank count do not fit the decomposition
     */
    public SlabFft(int nx, int ny, int nz, int np, Exchange exchange) {
        for (int d : new int[] {nx, ny, nz, np}) {
            if (d < 1 || Integer.bitCount(d) != 1) {
                throw new IllegalArgumentException("nx=" + nx + " ny=" + ny + " nz=" + nz + " np=" + np
                        + ": all must be powers of two");
            }
        }
        if (np > ny || np > nz) {
            throw new IllegalArgumentException("np=" + np + " must divide ny=" + ny + " and nz=" + nz);
        }
        if (2L * nx * ny * nz / np > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException(nx + "x" + ny + "x" + nz + " on " + np
                    + " ranks exceeds an int-indexed heap object per rank");
        }
        this.nx = nx;
        this.ny = ny;
        this.nz = nz;
        this.np = np;
        this.nzl = nz / np;
        this.nyl = ny / np;
        this.exchange = exchange;
        int maxDim = Math.max(nx, Math.max(ny, nz));
        this.fft = new StockhamFft(maxDim);
        this.scratch0 = new double[2 * maxDim * BLOCK];
        this.scratch1 = new double[2 * maxDim * BLOCK];
    }

    /** Doubles in one rank's share of the grid (either layout). */
    public int localDoubles() {
        return 2 * nx * ny * nzl;
    }

    /**
     * Forward 3D FFT (exponent sign +1, NPB's direction 1): {@code x1} in xyz layout, result in {@code x2} in zxy
     * layout. {@code x1} is overwritten.
     */
    public void forward(DoubleArray x1, DoubleArray x2) {
        fftX(x1, 1);
        fftY(x1, 1);
        transposeXyToZ(x1, x2);
        fftZ(x2, 1);
    }

    /**
     * Inverse 3D FFT (exponent sign -1, unnormalized): {@code x1} in zxy layout, result in {@code x2} in xyz
     * layout. {@code x1} is overwritten.
     */
    public void inverse(DoubleArray x1, DoubleArray x2) {
        fftZ(x1, -1);
        transposeZToXy(x1, x2);
        fftY(x2, -1);
        fftX(x2, -1);
    }

    /** FFTs along x of an xyz array: lines are contiguous, a block is BLOCK neighbouring y-rows of one plane. */
    void fftX(DoubleArray a, int sign) {
        int b = Math.min(BLOCK, ny);
        for (int k = 0; k < nzl; k++) {
            for (int y0 = 0; y0 < ny; y0 += b) {
                contiguousLines(a, nx * (y0 + ny * k), nx, nx, b, sign);
            }
        }
    }

    /** FFTs along y of an xyz array: elements are nx apart, a block is BLOCK neighbouring x-columns. */
    void fftY(DoubleArray a, int sign) {
        int b = Math.min(BLOCK, nx);
        for (int k = 0; k < nzl; k++) {
            for (int x0 = 0; x0 < nx; x0 += b) {
                stridedLines(a, x0 + nx * ny * k, ny, nx, b, sign);
            }
        }
    }

    /** FFTs along z of a zxy array: every (x, yl) line is contiguous. */
    void fftZ(DoubleArray a, int sign) {
        int lines = nx * nyl;
        int b = Math.min(BLOCK, lines);
        for (int l0 = 0; l0 < lines; l0 += b) {
            contiguousLines(a, nz * l0, nz, nz, b, sign);
        }
    }

    /** Transforms b lines of length n starting at complex {@code base}, line j at {@code base + j*lineStride}. */
    private void contiguousLines(DoubleArray a, int base, int n, int lineStride, int b, int sign) {
        final double[] s = scratch0;
        for (int j = 0; j < b; j++) {
            final long re = 2L * (base + (long) j * lineStride);
            final long im = re + 1;
            for (int i = 0; i < n; i++) {
                s[2 * (i * b + j)] = a.get(re, i, 2);
                s[2 * (i * b + j) + 1] = a.get(im, i, 2);
            }
        }
        final double[] r = fft.transform(sign, n, b, s, scratch1);
        for (int j = 0; j < b; j++) {
            final long re = 2L * (base + (long) j * lineStride);
            final long im = re + 1;
            for (int i = 0; i < n; i++) {
                a.set(re, i, 2, r[2 * (i * b + j)]);
                a.set(im, i, 2, r[2 * (i * b + j) + 1]);
            }
        }
    }

    /** Transforms b neighbouring lines of length n starting at complex {@code base}, elements elemStride apart. */
    private void stridedLines(DoubleArray a, int base, int n, int elemStride, int b, int sign) {
        final double[] s = scratch0;
        for (int i = 0; i < n; i++) {
            a.copyTo(2 * (base + i * elemStride), s, 2 * i * b, 2 * b);
        }
        final double[] r = fft.transform(sign, n, b, s, scratch1);
        for (int i = 0; i < n; i++) {
            a.copyFrom(r, 2 * i * b, 2 * (base + i * elemStride), 2 * b);
        }
    }

    /** xyz in {@code x1} to zxy in {@code x2}; {@code x1} serves as the all-to-all receive buffer. */
    void transposeXyToZ(DoubleArray x1, DoubleArray x2) {
        int n1 = nx * ny;
        transpose(x1, x2, n1, nzl);
        if (np == 1) {
            return;     // (nz, nx*ny) already is the zxy layout
        }
        exchange.allToAll(x2, x1, localDoubles() / np);
        // Block p holds rank p's planes for our rows, shape (nzl, n1/np): put them at z offset p*nzl.
        int rows = n1 / np;
        for (int p = 0; p < np; p++) {
            for (int j = 0; j < rows; j++) {
                x1.copyTo(2 * nzl * (j + rows * p), x2, 2 * (p * nzl + nz * j), 2 * nzl);
            }
        }
    }

    /** zxy in {@code x1} to xyz in {@code x2}; {@code x1} serves as the all-to-all receive buffer. */
    void transposeZToXy(DoubleArray x1, DoubleArray x2) {
        int n2 = nx * nyl;
        transpose(x1, x2, nz, n2);
        if (np == 1) {
            return;     // (nx*ny, nz) already is the xyz layout
        }
        exchange.allToAll(x2, x1, localDoubles() / np);
        // Block p holds rank p's rows for our planes, shape (n2, nzl): put them at y offset p*nyl.
        for (int p = 0; p < np; p++) {
            for (int j = 0; j < nzl; j++) {
                x1.copyTo(2 * n2 * (j + nzl * p), x2, 2 * (p * n2 + nx * ny * j), 2 * n2);
            }
        }
    }

    /**
     * Complex matrix transpose: {@code out[j + n2*i] = in[i + n1*j]} for {@code i < n1, j < n2}, tiled. A tile is read
     * from four rows of {@code in} at a time ({@link #readFourRows}) into {@link #tile}, where element {@code (i, j)}
     * lands in row {@code i}; each row of the tile is then one bulk copy into {@code out}.
     */
    void transpose(DoubleArray in, DoubleArray out, int n1, int n2) {
        final double[] t = tile;
        for (int i0 = 0; i0 < n1; i0 += TILE) {
            final int ni = Math.min(n1, i0 + TILE) - i0;
            for (int j0 = 0; j0 < n2; j0 += TILE) {
                final int nj = Math.min(n2, j0 + TILE) - j0;
                int j = 0;
                for (; j + 4 <= nj; j += 4) {
                    readFourRows(in, 2L * (i0 + (long) n1 * (j0 + j)), 2L * n1, ni, t, 2 * j);
                }
                for (; j < nj; j++) {   // n2 below four, or not a multiple of it: grids of a few planes per rank
                    final long re = 2L * (i0 + (long) n1 * (j0 + j));
                    final int column = 2 * j;
                    for (int i = 0; i < ni; i++) {
                        t[column + 2 * TILE * i] = in.get(re, i, 2);
                        t[column + 2 * TILE * i + 1] = in.get(re + 1, i, 2);
                    }
                }
                for (int i = 0; i < ni; i++) {
                    out.copyFrom(t, 2 * TILE * i, 2 * (j0 + n2 * (i0 + i)), 2 * nj);
                }
            }
        }
    }

    /**
     * Reads {@code ni} complex elements from each of four rows of {@code in}, the first at double {@code row0}, the
     * others {@code rowStride} doubles apart, into tile columns {@code column/2 .. column/2 + 3}. Four rows a pass
     * rather than one: each step stores 64 contiguous bytes of the tile (a cache line's worth) instead of 16 bytes
     * 512 bytes apart, and reads four independent streams. One row a pass ran 4 to 9% slower on the heap than on
     * arrays at class S (rows 64 KB apart), its time following where the rows began within a cache line
     * (FtLoopsBench, the reads alone at four start offsets: 317 to 365 us on either); four rows a pass take 246 to
     * 272 us at every offset, on either.
     */
    private static void readFourRows(DoubleArray in, long row0, long rowStride, int ni, double[] t, int column) {
        final long r1 = row0 + rowStride;
        final long r2 = r1 + rowStride;
        final long r3 = r2 + rowStride;
        for (int i = 0; i < ni; i++) {
            final int o = column + 2 * TILE * i;
            t[o] = in.get(row0, i, 2);
            t[o + 1] = in.get(row0 + 1, i, 2);
            t[o + 2] = in.get(r1, i, 2);
            t[o + 3] = in.get(r1 + 1, i, 2);
            t[o + 4] = in.get(r2, i, 2);
            t[o + 5] = in.get(r2 + 1, i, 2);
            t[o + 6] = in.get(r3, i, 2);
            t[o + 7] = in.get(r3 + 1, i, 2);
        }
    }
}
