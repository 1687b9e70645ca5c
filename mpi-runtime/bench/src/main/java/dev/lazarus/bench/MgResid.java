package dev.lazarus.bench;

import dev.lazarus.easycrash.DoubleArray;
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

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * NPB MG's 27-point residual {@code r = v - A u} ({@code resid}, as in {@code dev.lazarus.npb.mg.MgOps}) on a 34^3
 * grid (a 32^3 class S level plus its ghost layer), with u, v and r as {@link DoubleArray} objects in a persistent heap
 * and as plain {@code double[]}. The two line buffers u1 and u2 are temporaries, plain {@code double[]} in both. The
 * heap version indexes with an {@code int} sum ({@code u.get(s + i1)}), which keeps a bounds check per access;
 * {@code dev.lazarus.npb.mg.MgLoopsBench} times MgOps's own loop, which indexes as {@code u.get(s, i1)}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class MgResid {
    static final int N = 34;
    static final int POINTS = N * N * N;
    /** NPB MG's operator coefficients a(0..3); a(1) = 0 and its term is dropped, as mg.f does. */
    private final double[] coefficients = {-8.0 / 3.0, 0.0, 1.0 / 6.0, 1.0 / 12.0};

    private BenchHeap nvm;
    private DoubleArray hU;
    private DoubleArray hV;
    private DoubleArray hR;
    private double[] u;
    private double[] v;
    private double[] r;
    private final double[] u1 = new double[N];
    private final double[] u2 = new double[N];

    @Setup(Level.Trial)
    public void setUp() {
        SplittableRandom random = new SplittableRandom(271828183L);
        u = random.doubles(POINTS).toArray();
        v = random.doubles(POINTS).toArray();
        r = new double[POINTS];
        nvm = BenchHeap.open(8L * POINTS, 8L * POINTS, 8L * POINTS);
        hU = nvm.heap.doubles("u", POINTS, ObjectRole.CANDIDATE);
        hV = nvm.heap.doubles("v", POINTS, ObjectRole.REINITIALIZED);
        hR = nvm.heap.doubles("r", POINTS, ObjectRole.CANDIDATE);
        hU.copyFrom(u);
        hV.copyFrom(v);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        nvm.close();
    }

    @Benchmark
    public void residHeap() {
        DoubleArray u = hU;
        DoubleArray v = hV;
        DoubleArray r = hR;
        double[] u1 = this.u1;
        double[] u2 = this.u2;
        final double a0 = coefficients[0];
        final double a2 = coefficients[2];
        final double a3 = coefficients[3];
        final int n1 = N;
        final int p = N * N;
        for (int i3 = 1; i3 < N - 1; i3++) {
            for (int i2 = 1; i2 < N - 1; i2++) {
                final int c = i3 * p + i2 * n1;
                final int s = c - n1;
                final int n = c + n1;
                final int b = c - p;
                final int t = c + p;
                for (int i1 = 0; i1 < n1; i1++) {
                    u1[i1] = u.get(s + i1) + u.get(n + i1) + u.get(b + i1) + u.get(t + i1);
                    u2[i1] = u.get(b - n1 + i1) + u.get(b + n1 + i1) + u.get(t - n1 + i1) + u.get(t + n1 + i1);
                }
                for (int i1 = 1; i1 < n1 - 1; i1++) {
                    r.set(c + i1, v.get(c + i1) - a0 * u.get(c + i1)
                            - a2 * (u2[i1] + u1[i1 - 1] + u1[i1 + 1])
                            - a3 * (u2[i1 - 1] + u2[i1 + 1]));
                }
            }
        }
    }

    @Benchmark
    public void residArray() {
        double[] u = this.u;
        double[] v = this.v;
        double[] r = this.r;
        double[] u1 = this.u1;
        double[] u2 = this.u2;
        final double a0 = coefficients[0];
        final double a2 = coefficients[2];
        final double a3 = coefficients[3];
        final int n1 = N;
        final int p = N * N;
        for (int i3 = 1; i3 < N - 1; i3++) {
            for (int i2 = 1; i2 < N - 1; i2++) {
                final int c = i3 * p + i2 * n1;
                final int s = c - n1;
                final int n = c + n1;
                final int b = c - p;
                final int t = c + p;
                for (int i1 = 0; i1 < n1; i1++) {
                    u1[i1] = u[s + i1] + u[n + i1] + u[b + i1] + u[t + i1];
                    u2[i1] = u[b - n1 + i1] + u[b + n1 + i1] + u[t - n1 + i1] + u[t + n1 + i1];
                }
                for (int i1 = 1; i1 < n1 - 1; i1++) {
                    r[c + i1] = v[c + i1] - a0 * u[c + i1]
                            - a2 * (u2[i1] + u1[i1 - 1] + u1[i1 + 1])
                            - a3 * (u2[i1 - 1] + u2[i1 + 1]);
                }
            }
        }
    }
}
