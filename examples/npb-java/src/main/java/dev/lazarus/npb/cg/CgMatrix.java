package dev.lazarus.npb.cg;

import dev.lazarus.npb.common.NpbRandom;

import java.util.Arrays;

/**
 * A block of consecutive rows of NPB CG's sparse matrix in compressed-row form, and NPB's generator for it
 * ({@code makea}, {@code sprnvc}, {@code vecset}, {@code sparse}).
 *
 * <p>The matrix is {@code A = sum_i size_i * v_i v_i^T + (rcond - shift) I}, where {@code v_i} is a random sparse
 * vector with {@code 0.5} at position {@code i} and {@code size_i = rcond^(i/n)}. Every rank draws all {@code n}
 * vectors (the random sequence has to be consumed in NPB's order anyway) but assembles only its own rows. Because each
 * row sums its contributions in the same order whatever the row range, a block's entries are bit for bit the entries of
 * the same rows of the whole matrix.
 *
 * <p>Indices are 0-based: {@code rowstr} has {@code rows + 1} local row pointers, {@code colidx} holds global
 * column indices, ascending within each row.
 */
final class CgMatrix {
    /** NPB's seed {@code tran}. */
    static final double TRAN = 314159265.0;
    /** NPB's multiplier {@code amult}, 5^13. */
    static final double AMULT = 1220703125.0;

    /** First global row of the block. */
    final int firstrow;
    /** Number of rows in the block. */
    final int rows;
    /** Row pointers into {@link #a} and {@link #colidx}, {@code rows + 1} entries. */
    final int[] rowstr;
    /** Global column index of each nonzero. */
    final int[] colidx;
    /** Value of each nonzero. */
    final double[] a;

    private CgMatrix(int firstrow, int rows, int[] rowstr, int[] colidx, double[] a) {
        this.firstrow = firstrow;
        this.rows = rows;
        this.rowstr = rowstr;
        this.colidx = colidx;
        this.a = a;
    }

    /** Number of stored nonzeros. */
    int nonzeros() {
        return rowstr[rows];
    }

    /**
     * NPB's {@code makea}, for rows {@code firstrow .. firstrow + rows - 1}: seeds the generator as CG's main program
     * does (including the one value it draws and discards before {@code makea}), draws the {@code n} sparse vectors
     * and assembles the requested rows.
     */
    static CgMatrix makea(int n, int nonzer, double rcond, double shift, int firstrow, int rows) {
        if (firstrow < 0 || rows < 0 || firstrow + rows > n) {
            throw new IllegalArgumentException("rows " + firstrow + ".." + (firstrow + rows - 1)
                    + " are not inside 0.." + (n - 1));
        }
        NpbRandom random = new NpbRandom(TRAN);
        random.randlc(AMULT); // cg.f: zeta = randlc(tran, amult) before makea
        RowVectors vectors = RowVectors.generate(n, nonzer, random);
        return sparse(vectors, firstrow, rows, rcond, shift);
    }

    /**
     * The {@code n} sparse vectors NPB draws: vector {@code i} has {@code arow[i]} entries at
     * {@code acol/aelt[i * stride ..]}.
     */
    static final class RowVectors {
        final int n;
        final int stride;
        final int[] arow;
        final int[] acol;
        final double[] aelt;

        private RowVectors(int n, int stride) {
            this.n = n;
            this.stride = stride;
            this.arow = new int[n];
            this.acol = new int[n * stride];
            this.aelt = new double[n * stride];
        }

        /** The generation loop of {@code makea}: {@code sprnvc} then {@code vecset(.., iouter, 0.5)} per row. */
        static RowVectors generate(int n, int nonzer, NpbRandom random) {
            RowVectors vectors = new RowVectors(n, nonzer + 1);
            int nn1 = 1;
            do {
                nn1 *= 2; // smallest power of two not less than n, as NPB computes it
            } while (nn1 < n);
            double[] vc = new double[nonzer + 1];
            int[] ivc = new int[nonzer + 1];
            for (int iouter = 0; iouter < n; iouter++) {
                sprnvc(n, nonzer, nn1, vc, ivc, random);
                int nzv = vecset(vc, ivc, nonzer, iouter, 0.5);
                vectors.arow[iouter] = nzv;
                System.arraycopy(ivc, 0, vectors.acol, iouter * vectors.stride, nzv);
                System.arraycopy(vc, 0, vectors.aelt, iouter * vectors.stride, nzv);
            }
            return vectors;
        }
    }

    /**
     * NPB's {@code sprnvc}: a sparse vector of {@code nz} distinct positions in {@code 0..n-1} with random values.
     * Each candidate costs two draws (value, then position); positions beyond {@code n} or already taken are
     * skipped, exactly as NPB does, so that the random sequence stays in step.
     */
    static void sprnvc(int n, int nz, int nn1, double[] v, int[] iv, NpbRandom random) {
        int nzv = 0;
        while (nzv < nz) {
            double vecelt = random.randlc(AMULT);
            double vecloc = random.randlc(AMULT);
            int i = icnvrt(vecloc, nn1); // 0-based; NPB's 1-based i is this + 1
            if (i >= n || contains(iv, nzv, i)) {
                continue;
            }
            v[nzv] = vecelt;
            iv[nzv] = i;
            nzv++;
        }
    }

    /** NPB's {@code icnvrt}: scales {@code x} in (0, 1) by a power of two and chops it. */
    static int icnvrt(double x, int ipwr2) {
        return (int) (ipwr2 * x);
    }

    /**
     * NPB's {@code vecset}: sets position {@code i} of the sparse vector to {@code val}, appending it if absent.
     *
     * @return the new number of entries
     */
    static int vecset(double[] v, int[] iv, int nzv, int i, double val) {
        boolean set = false;
        for (int k = 0; k < nzv; k++) {
            if (iv[k] == i) {
                v[k] = val;
                set = true;
            }
        }
        if (set) {
            return nzv;
        }
        v[nzv] = val;
        iv[nzv] = i;
        return nzv + 1;
    }

    private static boolean contains(int[] iv, int count, int value) {
        for (int k = 0; k < count; k++) {
            if (iv[k] == value) {
                return true;
            }
        }
        return false;
    }

    /**
     * NPB's {@code sparse} restricted to rows {@code firstrow .. firstrow + rows - 1}: adds up the outer products
     * {@code size_i * v_i v_i^T} (plus {@code rcond - shift} on the diagonal) in NPB's order, keeping each row's
     * columns sorted and merging duplicates, then drops the unused space.
     */
    static CgMatrix sparse(RowVectors vectors, int firstrow, int rows, double rcond, double shift) {
        int n = vectors.n;
        int stride = vectors.stride;
        int end = firstrow + rows;
        // Capacity per row: every triple that lands in it, before duplicates merge (NPB's first rowstr pass).
        int[] capacity = new int[rows + 1];
        for (int i = 0; i < n; i++) {
            for (int nza = 0; nza < vectors.arow[i]; nza++) {
                int j = vectors.acol[i * stride + nza];
                if (j >= firstrow && j < end) {
                    capacity[j - firstrow + 1] += vectors.arow[i];
                }
            }
        }
        for (int j = 1; j <= rows; j++) {
            capacity[j] += capacity[j - 1];
        }
        int[] colidx = new int[capacity[rows]];
        double[] a = new double[capacity[rows]];
        int[] fill = new int[rows];
        double size = 1.0;
        double ratio = Math.pow(rcond, 1.0 / n);
        for (int i = 0; i < n; i++) {
            int base = i * stride;
            for (int nza = 0; nza < vectors.arow[i]; nza++) {
                int j = vectors.acol[base + nza];
                if (j < firstrow || j >= end) {
                    continue;
                }
                double scale = size * vectors.aelt[base + nza];
                for (int nzrow = 0; nzrow < vectors.arow[i]; nzrow++) {
                    int jcol = vectors.acol[base + nzrow];
                    double va = vectors.aelt[base + nzrow] * scale;
                    if (jcol == j && j == i) {
                        va = va + rcond - shift; // bounds the smallest eigenvalue by rcond, then shifts
                    }
                    int row = j - firstrow;
                    if (insert(colidx, a, capacity[row], fill[row], jcol, va)) {
                        fill[row]++;
                    }
                }
            }
            size *= ratio;
        }
        return compact(firstrow, rows, capacity, fill, colidx, a);
    }

    /**
     * Adds {@code va} at column {@code jcol} of a row whose sorted, used entries are {@code colidx/a[start ..
     * start + used)}: into the existing entry if the column is there, otherwise into a new entry inserted in order.
     * NPB scans the row linearly and shifts the tail; a binary search finds the same place.
     *
     * @return whether a new entry was made (the row grew by one)
     */
    private static boolean insert(int[] colidx, double[] a, int start, int used, int jcol, double va) {
        int k = Arrays.binarySearch(colidx, start, start + used, jcol);
        if (k >= 0) {
            a[k] = a[k] + va; // a duplicate: NPB's nzloc case
            return false;
        }
        k = -k - 1;
        System.arraycopy(colidx, k, colidx, k + 1, start + used - k);
        System.arraycopy(a, k, a, k + 1, start + used - k);
        colidx[k] = jcol;
        a[k] = 0.0;
        a[k] = a[k] + va; // as NPB: a fresh entry starts at 0.0, then the contribution is added
        return true;
    }

    /** Squeezes out each row's unused space, as the end of NPB's {@code sparse} does. */
    private static CgMatrix compact(int firstrow, int rows, int[] capacity, int[] fill, int[] colidx, double[] a) {
        int[] rowstr = new int[rows + 1];
        for (int j = 0; j < rows; j++) {
            rowstr[j + 1] = rowstr[j] + fill[j];
        }
        int nnz = rowstr[rows];
        int[] packedCol = new int[nnz];
        double[] packedA = new double[nnz];
        for (int j = 0; j < rows; j++) {
            System.arraycopy(colidx, capacity[j], packedCol, rowstr[j], fill[j]);
            System.arraycopy(a, capacity[j], packedA, rowstr[j], fill[j]);
        }
        return new CgMatrix(firstrow, rows, rowstr, packedCol, packedA);
    }
}
