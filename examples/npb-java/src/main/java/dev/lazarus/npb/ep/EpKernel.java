package dev.lazarus.npb.ep;

import dev.lazarus.easycrash.DoubleArray;
import dev.lazarus.easycrash.EasyCrash;
import dev.lazarus.easycrash.ObjectRole;
import dev.lazarus.easycrash.Recomputable;
import dev.lazarus.easycrash.RecomputableApplication;
import dev.lazarus.easycrash.RecomputingRun;
import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.ElementType;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.npb.common.KernelOptions;
import dev.lazarus.npb.common.NpbRandom;
import dev.lazarus.npb.common.NpbReport;
import dev.lazarus.npb.common.ProblemClass;
import dev.lazarus.verification.Verdict;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

import static dev.lazarus.easycrash.Recomputable.pageAligned;

/**
 * NPB EP (Embarrassingly Parallel), MPI version of NPB 3.4: generates {@code 2^(M+1)} uniform pseudo-random numbers
 * in {@code NN = 2^(M-MK)} batches of {@code 2 * NK} numbers, turns pairs into Gaussian deviates by the Marsaglia
 * polar method, counts them per square annulus and sums them. Batches are split over the ranks (any rank count up to
 * {@code NN}); the sums and counts are all-reduced at the end.
 *
 * <p>Named data objects (NPB's names): {@code x} (the current batch's uniforms), {@code q} (annulus counts),
 * {@code sums} (this rank's {@code sx}, {@code sy}: sums of the deviates' absolute values, NPB 3.4, and the signed
 * sums of NPB 3.3), {@code an} (the batch stride multiplier) and {@code batchSeed}. After the loop {@code sx},
 * {@code sy}, {@code sxSigned}, {@code sySigned}, {@code counts} and {@code gc} (Gaussian pair count) hold the
 * all-reduced results.
 *
 * <p>Regions of the timed main loop, one iteration per batch {@code k} of this rank (NPB's {@code do k = 1, np}):
 * {@code findBatchSeed()} (jump the generator to the batch), {@code generateUniforms()} ({@code vranlc} into
 * {@code x}), {@code tallyGaussianPairs()} (deviates, counts, sums). Verification all-reduces the sums.
 *
 * <p>Verification follows NPB 3.4.2: relative error at most {@code 1e-8} on {@code sx}, {@code sy} and {@code gc}.
 * The NPB 3.3 signed sums are checked too (same tolerance), since both are published NPB reference values and
 * computing both costs two additions per pair. So is every annulus count, exactly ({@link EpVerification}): EP
 * reports them, and NPB's checks can pass with a count changed in NVM.
 *
 * <p><b>EasyCrash.</b> An iteration is one batch, so the bookmark is the batch in progress; {@link #iterations()}
 * is the most batches any rank has (a rank with one fewer idles through the last iteration). {@code x} is
 * TEMPORARY (every batch overwrites it before reading it; a plain array outside campaigns). The CANDIDATE object
 * {@code tallies} is the whole state of the computation: one slot of {@link #TALLY} values (the four sums, then the
 * annulus counts) per batch,
 * slot {@code i} holding the tallies of this rank's batches 1 to {@code i} (slot 0: zeros). Batch {@code i} reads
 * slot {@code i - 1} and writes slot {@code i}, so running a batch again gives the same result: a restart at any
 * batch up to where the rank had come is exact, whatever the crash interrupted. That matters because a process that
 * dies leaves every store it made in NVM (unlike a power failure, which loses what was still in the caches), and
 * because EP's ranks never synchronize in the loop: when bookmarks differ, the runtime resumes every rank at the
 * smallest, and a rank that was ahead runs its extra batches again. Accumulating in place, as NPB does, would count
 * them twice and verification would reject every such restart. The slots cost {@code 8 * 14} bytes per batch
 * (class A: 448 KiB in all); the final all-reduce works on copies, so the heap keeps the rank's tallies if the job
 * dies while verifying. Each batch declares the slot it wrote ({@code DataObject.changed}), so a persistence
 * operation writes back that slot's two or three cache lines, not the whole object.
 */
public final class EpKernel implements RecomputableApplication, Recomputable {
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
    /** Index in a tallies slot of the sum of |X| (NPB 3.4). */
    static final int SX = 0;
    /** Index in a tallies slot of the sum of |Y| (NPB 3.4). */
    static final int SY = 1;
    /** Index in a tallies slot of the sum of X (NPB 3.3). */
    static final int SX_SIGNED = 2;
    /** Index in a tallies slot of the sum of Y (NPB 3.3). */
    static final int SY_SIGNED = 3;
    /** Index in a slot of the {@code tallies} object of the first annulus count. */
    public static final int COUNTS = 4;
    /** Values per slot of the {@code tallies} object: the four sums and the annulus counts. */
    public static final int TALLY = COUNTS + NQ;
    private static final String NAME = "npb.EP";
    private static final List<String> REGIONS = List.of("findBatchSeed", "generateUniforms", "tallyGaussianPairs");

    /** Uniform numbers of the current batch, {@code 2 * NK} of them. */
    DoubleArray x;
    /**
     * This rank's tallies after each of its batches: slot {@code i} ({@link #TALLY} values from {@code i * TALLY})
     * holds the sums over accepted pairs ({@link #SX}, {@link #SY}, {@link #SX_SIGNED}, {@link #SY_SIGNED}) and the
     * counts of pairs per annulus {@code l <= max(|X|, |Y|) < l + 1} (from {@link #COUNTS}) of batches 1 to {@code i}.
     */
    DoubleArray tallies;
    /** Scratch for the annulus counts of the batch being tallied. */
    private final double[] annuli = new double[NQ];
    /** All-reduced sum of |X| over accepted pairs (NPB 3.4), set by {@link #verify()}. */
    double sx;
    /** All-reduced sum of |Y| (NPB 3.4). */
    double sy;
    /** All-reduced sum of X (NPB 3.3). */
    double sxSigned;
    /** All-reduced sum of Y (NPB 3.3). */
    double sySigned;
    /** All-reduced annulus counts. */
    final double[] counts = new double[NQ];
    /** Number of accepted Gaussian pairs, the sum of {@link #counts}. */
    double gc;
    /** {@code A^(2 * NK) mod 2^46}: the multiplier that advances the generator by one batch. */
    double an;
    /** The generator state at the start of the current batch. */
    double batchSeed;

    private ProblemClass problemClass;
    private int m;
    private Comm comm;
    /** This rank's first batch (0-based, global numbering). */
    private long firstBatch;
    /** This rank's number of batches. */
    private int batchCount;
    /** Main-loop iterations on every rank: the largest batch count. */
    private int iterations;
    private boolean quiet;

    /** Creates a kernel; {@link #run} sets it up for the chosen class. */
    public EpKernel() {
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Parses the arguments and sets up this rank's share of the batches (everything before the persistent heap). */
    @Override
    public Recomputable prepare(Comm world, String[] args) {
        KernelOptions options = KernelOptions.parse(name(), args);
        setup(options.problemClass());
        partition(world);
        this.quiet = options.quiet();
        return this;
    }

    @Override
    public void announce() {
        if (comm.rank() == 0 && !quiet) {
            printHeader(System.out, comm.size());
        }
    }

    @Override
    public void report(RecomputingRun.Outcome outcome, double wallSeconds) {
        if (comm.rank() != 0) {
            return;
        }
        // NPB's timed section ends with the all-reduce of the sums, which verify() runs.
        double seconds = outcome.seconds() + outcome.verificationSeconds();
        if (!quiet) {
            printResults(System.out, seconds);
        }
        double mops = Math.scalb(1.0, m + 1) / seconds / 1e6;
        new NpbReport("EP", problemClass, Long.toString(1L << (m + 1)), 0, seconds, comm.size(), mops,
                "Random numbers generated", outcome.verdict(), comm.backend()).print(System.out);
    }

    /** Sets the class and the batch stride multiplier. */
    void setup(ProblemClass pc) {
        this.problemClass = pc;
        this.m = classM(pc);
        // A^(2 * NK) by squaring MK + 1 times, as NPB does.
        double t1 = A;
        for (int i = 0; i < MK + 1; i++) {
            t1 = NpbRandom.multiplyMod46(t1, t1);
        }
        an = t1;
    }

    /**
     * Gives this rank its batches: NPB gives the first {@code nn % ranks} ranks one extra batch.
     *
     * @throws IllegalArgumentException if there are more ranks than batches
     */
    private void partition(Comm world) {
        long nn = batches();
        int ranks = world.size();
        if (ranks > nn) {
            throw new IllegalArgumentException("npb.EP: class " + problemClass + " has " + nn
                    + " batches, so it runs on 1 to " + nn + " ranks (got " + ranks + ")");
        }
        this.comm = world;
        long np = nn / ranks;
        long largeRanks = nn % ranks;
        int rank = world.rank();
        firstBatch = rank < largeRanks ? rank * (np + 1) : largeRanks * (np + 1) + (rank - largeRanks) * np;
        batchCount = Math.toIntExact(rank < largeRanks ? np + 1 : np);
        iterations = Math.toIntExact(largeRanks > 0 ? np + 1 : np);
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

    // ---- Recomputable ---------------------------------------------------------------------------------------------

    @Override
    public String application() {
        return NAME;
    }

    @Override
    public String signature() {
        return NAME + " --class " + problemClass;
    }

    @Override
    public List<String> regions() {
        return REGIONS;
    }

    @Override
    public long heapBytes() {
        return pageAligned(8L * 2 * NK) + pageAligned(8L * TALLY * (batchCount + 1));
    }


    @Override
    public void attach(EasyCrash easyCrash) {
        x = easyCrash.doubles("x", 2 * NK, ObjectRole.TEMPORARY);
        tallies = easyCrash.doubles("tallies", TALLY * (batchCount + 1));
    }

    /** {@code x} needs no rebuilding (each batch fills it before reading it); a fresh start clears the tallies. */
    @Override
    public void initialize(boolean fresh) {
        if (fresh) {
            tallies.fill(0.0);
        }
    }

    @Override
    public int iterations() {
        return iterations;
    }

    /** Batch {@code firstBatch + iteration - 1}, if this rank has that many batches. */
    @Override
    public void iterate(int iteration, EasyCrash easyCrash) {
        boolean mine = iteration <= batchCount;
        if (mine) {
            findBatchSeed(firstBatch + iteration - 1);
        }
        easyCrash.endRegion(0, iteration);
        if (mine) {
            generateUniforms();
        }
        easyCrash.endRegion(1, iteration);
        if (mine) {
            tallyGaussianPairs(iteration);
        }
        easyCrash.endRegion(2, iteration);
    }

    /**
     * NPB's verification of the sums and counts all-reduced over the ranks (collective): the slot of this rank's
     * last batch. The reduction works on a copy: {@link #tallies} keeps this rank's values for a restart.
     */
    @Override
    public Verdict verify() {
        double[] global = new double[TALLY];
        tallies.copyTo(TALLY * batchCount, global, 0, TALLY);
        comm.allreduce(global, 0, global, 0, global.length, ElementType.DOUBLE, ReduceOp.SUM);
        sx = global[SX];
        sy = global[SY];
        sxSigned = global[SX_SIGNED];
        sySigned = global[SY_SIGNED];
        gc = 0.0;
        for (int i = 0; i < NQ; i++) {
            counts[i] = global[COUNTS + i];
            gc += counts[i];
        }
        return EpVerification.forClass(problemClass).verify(sx, sy, gc, sxSigned, sySigned, counts);
    }

    // ---- code regions of the main loop ----------------------------------------------------------------------------

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

    /** Region 2: fills {@link #x} with the batch's {@code 2 * NK} uniforms in (0, 1) ({@code vranlc}). */
    void generateUniforms() {
        EpOps.generateUniforms(x, batchSeed, A, 2 * NK);
    }

    /**
     * Region 3 of iteration {@code i}: turns each pair of uniforms into a pair of Gaussian deviates and tallies them,
     * pair by pair as NPB does, into slot {@code i} from slot {@code i - 1} (see {@link EpOps#tallyGaussianPairs}).
     */
    void tallyGaussianPairs(int iteration) {
        EpOps.tallyGaussianPairs(x, tallies, TALLY * (iteration - 1), TALLY * iteration, annuli, 2 * NK);
        tallies.changed(TALLY * iteration, TALLY); // the plan's persistence then writes back this slot, not all
    }

    // ---- output ---------------------------------------------------------------------------------------------------

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
            b.append(String.format(Locale.ROOT, "%3d %15.0f%n", i, counts[i]));
        }
        out.print(b);
        out.flush();
    }
}
