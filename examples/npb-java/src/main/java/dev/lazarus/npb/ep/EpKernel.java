package dev.lazarus.npb.ep;

import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.MpiApplication;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.npb.common.KernelOptions;
import dev.lazarus.npb.common.NpbRandom;
import dev.lazarus.npb.common.NpbReport;
import dev.lazarus.npb.common.ProblemClass;
import dev.lazarus.verification.Verdict;

import java.io.PrintStream;
import java.util.Locale;

/**
 * NPB EP (Embarrassingly Parallel), MPI version of NPB 3.4: generates {@code 2^(M+1)} uniform pseudo-random numbers
 * in {@code NN = 2^(M-MK)} batches of {@code 2 * NK} numbers, turns pairs into Gaussian deviates by the Marsaglia
 * polar method, counts them per square annulus and sums them. Batches are split over the ranks (any rank count up to
 * {@code NN}); the sums and counts are all-reduced at the end.
 *
 * <p>Named data objects (NPB's names): {@code x} (the current batch's uniforms), {@code q} (annulus counts),
 * {@code sx}, {@code sy} (sums of the deviates' absolute values, NPB 3.4), {@code sxSigned}, {@code sySigned}
 * (signed sums, NPB 3.3), {@code gc} (Gaussian pair count), {@code an} (the batch stride multiplier) and
 * {@code batchSeed}.
 *
 * <p>Regions of the timed main loop, one call per batch {@code k}: {@code findBatchSeed()} (jump the generator to
 * the batch), {@code generateUniforms()} ({@code vranlc} into {@code x}), {@code tallyGaussianPairs()} (deviates,
 * counts, sums). After the loop, {@code reduceSums()} combines all ranks.
 *
 * <p>Verification follows NPB 3.4.2: relative error at most {@code 1e-8} on {@code sx}, {@code sy} and {@code gc}.
 * The NPB 3.3 signed sums are checked too (same tolerance), since both are published NPB reference values and
 * computing both costs two additions per pair.
 */
public final class EpKernel implements MpiApplication {
    /** log2 of the numbers per batch half: each batch holds {@code 2 * NK} uniforms. */
    static final int MK = 16;
    /** Pairs per batch. */
    static final int NK = 1 << MK;
    /** Number of square annuli counted. */
    static final int NQ = 10;
    /** NPB's initial seed. */
    static final double S = 271828183.0;
    /** NPB's multiplier, 5^13. */
    static final double A = NpbRandom.A;
    /** NPB's verification tolerance. */
    static final double EPSILON = 1.0e-8;

    /** Uniform numbers of the current batch, {@code 2 * NK} of them. */
    double[] x;
    /** Counts of deviate pairs per annulus {@code l <= max(|X|, |Y|) < l + 1}. */
    double[] q;
    /** Sum of |X| over accepted pairs (NPB 3.4). */
    double sx;
    /** Sum of |Y| over accepted pairs (NPB 3.4). */
    double sy;
    /** Sum of X over accepted pairs (NPB 3.3). */
    double sxSigned;
    /** Sum of Y over accepted pairs (NPB 3.3). */
    double sySigned;
    /** Number of accepted Gaussian pairs, the sum of {@code q}. */
    double gc;
    /** {@code A^(2 * NK) mod 2^46}: the multiplier that advances the generator by one batch. */
    double an;
    /** The generator state at the start of the current batch. */
    double batchSeed;

    private final NpbRandom generator = new NpbRandom(S);
    private ProblemClass problemClass;
    private int m;

    /** Creates a kernel; {@link #run} sets it up for the chosen class. */
    public EpKernel() {
    }

    @Override
    public String name() {
        return "npb.EP";
    }

    @Override
    public int run(Comm comm, String[] args) {
        KernelOptions options = KernelOptions.parse(name(), args);
        setup(options.problemClass());
        long nn = batches();
        int ranks = comm.size();
        if (ranks > nn) {
            throw new IllegalArgumentException("npb.EP: class " + problemClass + " has " + nn
                    + " batches, so it runs on 1 to " + nn + " ranks (got " + ranks + ")");
        }
        boolean root = comm.rank() == 0;
        if (root && !options.quiet()) {
            printHeader(System.out, ranks);
        }
        // NPB gives the first nn % ranks ranks one extra batch.
        long np = nn / ranks;
        long largeRanks = nn % ranks;
        long first = comm.rank() < largeRanks ? comm.rank() * (np + 1)
                : largeRanks * (np + 1) + (comm.rank() - largeRanks) * np;
        long count = comm.rank() < largeRanks ? np + 1 : np;

        comm.barrier();
        long start = System.nanoTime();
        for (long k = first; k < first + count; k++) {
            findBatchSeed(k);
            generateUniforms();
            tallyGaussianPairs();
        }
        reduceSums(comm);
        double seconds = comm.allreduce((System.nanoTime() - start) * 1e-9, ReduceOp.MAX);

        Verdict verdict = verify();
        if (root) {
            if (!options.quiet()) {
                printResults(System.out, seconds);
            }
            double mops = Math.scalb(1.0, m + 1) / seconds / 1e6;
            new NpbReport("EP", problemClass, Long.toString(1L << (m + 1)), 0, seconds, ranks, mops,
                    "Random numbers generated", verdict, comm.backend()).print(System.out);
        }
        return verdict.accepted() ? 0 : 1;
    }

    /** Allocates the data objects and clears the sums for {@code problemClass}. */
    void setup(ProblemClass pc) {
        this.problemClass = pc;
        this.m = classM(pc);
        x = new double[2 * NK];
        q = new double[NQ];
        sx = 0.0;
        sy = 0.0;
        sxSigned = 0.0;
        sySigned = 0.0;
        gc = 0.0;
        // A^(2 * NK) by squaring MK + 1 times, as NPB does.
        double t1 = A;
        for (int i = 0; i < MK + 1; i++) {
            t1 = NpbRandom.multiplyMod46(t1, t1);
        }
        an = t1;
    }

    /** NPB's M for a class: {@code 2^(M+1)} random numbers in total. */
    static int classM(ProblemClass pc) {
        return switch (pc) {
            case S -> 24;
            case W -> 25;
            case A -> 28;
            case B -> 30;
        };
    }

    /** Number of batches {@code NN = 2^(M - MK)}. */
    long batches() {
        return 1L << (m - MK);
    }

    /**
     * Region 1: sets {@link #batchSeed} to {@code S * an^kk mod 2^46}, the generator state at the start of batch
     * {@code kk} (0-based), by NPB's binary jump so any rank can start any batch without generating the ones before.
     */
    void findBatchSeed(long kk) {
        double t1 = S;
        double t2 = an;
        long k = kk;
        while (true) {
            long ik = k / 2;
            if (2 * ik != k) {
                t1 = NpbRandom.multiplyMod46(t1, t2);
            }
            if (ik == 0) {
                break;
            }
            t2 = NpbRandom.multiplyMod46(t2, t2);
            k = ik;
        }
        batchSeed = t1;
    }

    /** Region 2: fills {@link #x} with the batch's {@code 2 * NK} uniforms in (0, 1). */
    void generateUniforms() {
        generator.seed(batchSeed);
        generator.vranlc(2 * NK, A, x, 0);
    }

    /**
     * Region 3: turns each pair of uniforms into a pair of Gaussian deviates (Marsaglia polar method, rejecting
     * pairs outside the unit disc) and tallies counts per annulus and the sums.
     */
    void tallyGaussianPairs() {
        double[] xs = x;
        double[] counts = q;
        double sumX = sx;
        double sumY = sy;
        double signedX = sxSigned;
        double signedY = sySigned;
        for (int i = 0; i < NK; i++) {
            double x1 = 2.0 * xs[2 * i] - 1.0;
            double x2 = 2.0 * xs[2 * i + 1] - 1.0;
            double t1 = x1 * x1 + x2 * x2;
            if (t1 <= 1.0) {
                double t2 = Math.sqrt(-2.0 * Math.log(t1) / t1);
                double t3 = x1 * t2;
                double t4 = x2 * t2;
                double a3 = Math.abs(t3);
                double a4 = Math.abs(t4);
                counts[(int) Math.max(a3, a4)] += 1.0;
                sumX += a3;
                sumY += a4;
                signedX += t3;
                signedY += t4;
            }
        }
        sx = sumX;
        sy = sumY;
        sxSigned = signedX;
        sySigned = signedY;
    }

    /** Sums {@code sx}, {@code sy}, the signed sums and {@code q} over all ranks, then {@code gc} from {@code q}. */
    void reduceSums(Comm comm) {
        double[] sums = {sx, sy, sxSigned, sySigned};
        comm.allreduce(sums, 0, sums, 0, sums.length, ReduceOp.SUM);
        sx = sums[0];
        sy = sums[1];
        sxSigned = sums[2];
        sySigned = sums[3];
        comm.allreduce(q, 0, q, 0, NQ, ReduceOp.SUM);
        sumCounts();
    }

    /** Sets {@link #gc} to the total of {@link #q}. */
    void sumCounts() {
        gc = 0.0;
        for (int i = 0; i < NQ; i++) {
            gc += q[i];
        }
    }

    /** NPB's verification of the reduced results for the current class. */
    Verdict verify() {
        return EpVerification.forClass(problemClass).verify(sx, sy, gc, sxSigned, sySigned);
    }

    private void printHeader(PrintStream out, int ranks) {
        out.printf(Locale.ROOT, "%n NAS Parallel Benchmarks 3.4 (Lazarus Java) -- EP Benchmark%n%n");
        out.printf(Locale.ROOT, " Number of random numbers generated: %15d  (class %s)%n", 1L << (m + 1),
                problemClass);
        out.printf(Locale.ROOT, " Total number of processes:          %15d%n%n", ranks);
    }

    private void printResults(PrintStream out, double seconds) {
        StringBuilder b = new StringBuilder(512);
        b.append(String.format(Locale.ROOT, "EP Benchmark Results:%n%nCPU Time = %10.3f%nN = 2^%5d%n", seconds, m));
        b.append(String.format(Locale.ROOT, "No. Gaussian Pairs = %15.0f%n", gc));
        b.append(String.format(Locale.ROOT, "Sums = %25.15e %25.15e%n", sx, sy));
        b.append(String.format(Locale.ROOT, "Signed sums (NPB 3.3) = %25.15e %25.15e%n", sxSigned, sySigned));
        b.append(String.format(Locale.ROOT, "Counts:%n"));
        for (int i = 0; i < NQ; i++) {
            b.append(String.format(Locale.ROOT, "%3d %15.0f%n", i, q[i]));
        }
        out.print(b);
        out.flush();
    }
}
