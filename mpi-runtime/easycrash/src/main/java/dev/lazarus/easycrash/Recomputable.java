package dev.lazarus.easycrash;

import dev.lazarus.verification.Verdict;

import java.util.List;

/**
 * An iterative application EasyCrash can restart from NVM: a main loop of code regions over named data objects, and
 * an acceptance verification. {@link RecomputingRun} drives it.
 */
public interface Recomputable {

    /** The application's name, e.g. {@code npb.CG}. */
    String application();

    /** The application plus whatever shapes its data (class, sizes); a heap left by another signature is not reused. */
    String signature();

    /** The main loop's code regions, in order. */
    List<String> regions();

    /** Bytes of heap the data objects need, each object rounded up with {@link #pageAligned}. */
    long heapBytes();

    /** {@code bytes} rounded up to the heap's 4 KiB page: what one object of that size occupies. */
    static long pageAligned(long bytes) {
        return dev.lazarus.easycrash.heap.HeapLayout.pageAlign(bytes);
    }

    /** Attaches every data object through {@code easyCrash} (called again after a rollback). */
    void attach(EasyCrash easyCrash);

    /**
     * Builds the state a restart cannot take from NVM (read-only and temporary objects). With {@code fresh} it also
     * initializes the candidate objects and does any untimed warm-up, as a normal start does.
     */
    void initialize(boolean fresh);

    /** Number of main-loop iterations of a normal run; they are numbered 1 to this. */
    int iterations();

    /**
     * How far a restarted run may go past {@link #iterations()} to pass verification (the paper's S2 outcome): twice
     * the normal count by default. An application whose iterations are not repeatable past the end (for example one
     * that verifies a value per iteration) returns {@link #iterations()}.
     */
    default int maxIterations() {
        return 2 * iterations();
    }

    /**
     * Runs main-loop iteration {@code iteration}, calling {@link EasyCrash#endRegion} at the end of each region.
     */
    void iterate(int iteration, EasyCrash easyCrash);

    /** The acceptance verification; collective, and the same verdict on every rank. */
    Verdict verify();
}
