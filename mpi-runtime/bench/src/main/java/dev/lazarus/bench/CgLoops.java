package dev.lazarus.bench;

import dev.lazarus.easycrash.DoubleArray;
import dev.lazarus.easycrash.IntArray;
import dev.lazarus.easycrash.ObjectRole;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * NPB CG's inner loops on a class S-sized matrix, each written twice: on {@link DoubleArray}/{@link IntArray} objects
 * in a persistent heap (as {@code dev.lazarus.npb.cg.CgKernel} runs them) and on plain {@code double[]}/{@code int[]}.
 *
 * <p>The matrix is random, not NPB's {@code makea}: {@value #NA} rows (class S's {@code na}), each with its diagonal
 * and {@value #OFF_DIAGONAL} distinct random columns in increasing order, in CSR form ({@code rowstr}, {@code colidx},
 * {@code a}). That is 78,400 nonzeros, the size of class S's matrix ({@code na (nonzer + 1)^2} = 89,600 generated
 * entries before duplicates are summed), and the same access pattern: a streamed {@code a}/{@code colidx} and
 * scattered reads of {@code p}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class CgLoops {
    static final int NA = 1400;
    static final int OFF_DIAGONAL = 55;
    static final int NNZ = NA * (OFF_DIAGONAL + 1);

    private BenchHeap nvm;

    // Persistent heap.
    private IntArray hRowstr;
    private IntArray hColidx;
    private DoubleArray hA;
    private DoubleArray hP;
    private DoubleArray hQ;
    private DoubleArray hZ;
    private DoubleArray hR;

    // Plain arrays, same contents.
    private int[] rowstr;
    private int[] colidx;
    private double[] a;
    private double[] p;
    private double[] q;
    private double[] z;
    private double[] r;

    /** Small enough that z and r stay bounded over billions of calls; a field, so it is not a constant. */
    private double alpha = 1.0e-12;

    @Setup(Level.Trial)
    public void setUp() {
        SplittableRandom random = new SplittableRandom(314159265L);
        rowstr = new int[NA + 1];
        colidx = new int[NNZ];
        a = new double[NNZ];
        int k = 0;
        for (int row = 0; row < NA; row++) {
            rowstr[row] = k;
            int[] columns = random.ints(0, NA).filter(c -> c != 0).distinct().limit(OFF_DIAGONAL).toArray();
            columns = Arrays.copyOf(columns, OFF_DIAGONAL + 1);
            columns[OFF_DIAGONAL] = row;
            for (int i = 0; i < OFF_DIAGONAL; i++) {
                if (columns[i] == row) {
                    columns[i] = 0; // 0 was filtered out, so the row's columns stay distinct
                }
            }
            Arrays.sort(columns);
            for (int column : columns) {
                colidx[k] = column;
                a[k] = column == row ? OFF_DIAGONAL + random.nextDouble() : random.nextDouble() - 0.5;
                k++;
            }
        }
        rowstr[NA] = k;
        p = random.doubles(NA).toArray();
        q = random.doubles(NA).toArray();
        z = random.doubles(NA).toArray();
        r = random.doubles(NA).toArray();

        nvm = BenchHeap.open(4L * (NA + 1), 4L * NNZ, 8L * NNZ, 8L * NA, 8L * NA, 8L * NA, 8L * NA);
        hRowstr = nvm.heap.ints("rowstr", NA + 1, ObjectRole.REINITIALIZED);
        hColidx = nvm.heap.ints("colidx", NNZ, ObjectRole.REINITIALIZED);
        hA = nvm.heap.doubles("a", NNZ, ObjectRole.REINITIALIZED);
        hP = nvm.heap.doubles("p", NA, ObjectRole.CANDIDATE);
        hQ = nvm.heap.doubles("q", NA, ObjectRole.CANDIDATE);
        hZ = nvm.heap.doubles("z", NA, ObjectRole.CANDIDATE);
        hR = nvm.heap.doubles("r", NA, ObjectRole.CANDIDATE);
        hRowstr.copyFrom(rowstr);
        hColidx.copyFrom(colidx);
        hA.copyFrom(a);
        hP.copyFrom(p);
        hQ.copyFrom(q);
        hZ.copyFrom(z);
        hR.copyFrom(r);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        nvm.close();
    }

    /** CG's {@code multiply}: q = A p, {@code sum += a[k] * p[colidx[k]]}. */
    @Benchmark
    public void spmvHeap() {
        for (int j = 0; j < NA; j++) {
            double sum = 0.0;
            int end = hRowstr.get(j + 1);
            for (int k = hRowstr.get(j); k < end; k++) {
                sum = sum + hA.get(k) * hP.get(hColidx.get(k));
            }
            hQ.set(j, sum);
        }
    }

    @Benchmark
    public void spmvArray() {
        for (int j = 0; j < NA; j++) {
            double sum = 0.0;
            int end = rowstr[j + 1];
            for (int k = rowstr[j]; k < end; k++) {
                sum = sum + a[k] * p[colidx[k]];
            }
            q[j] = sum;
        }
    }

    /** CG's update of z and r: {@code z[j] += alpha p[j]; r[j] -= alpha q[j]}. */
    @Benchmark
    public void daxpyHeap() {
        double alpha = this.alpha;
        for (int j = 0; j < NA; j++) {
            hZ.set(j, hZ.get(j) + alpha * hP.get(j));
            hR.set(j, hR.get(j) - alpha * hQ.get(j));
        }
    }

    @Benchmark
    public void daxpyArray() {
        double alpha = this.alpha;
        for (int j = 0; j < NA; j++) {
            z[j] = z[j] + alpha * p[j];
            r[j] = r[j] - alpha * q[j];
        }
    }

    /** CG's {@code localDot}: p.q. */
    @Benchmark
    public double dotHeap() {
        double sum = 0.0;
        for (int j = 0; j < NA; j++) {
            sum = sum + hP.get(j) * hQ.get(j);
        }
        return sum;
    }

    @Benchmark
    public double dotArray() {
        double sum = 0.0;
        for (int j = 0; j < NA; j++) {
            sum = sum + p[j] * q[j];
        }
        return sum;
    }
}
