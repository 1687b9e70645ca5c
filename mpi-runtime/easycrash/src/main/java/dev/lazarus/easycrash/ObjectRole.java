package dev.lazarus.easycrash;

/** What a data object is to EasyCrash (paper §5.1). */
public enum ObjectRole {
    /**
     * Lives through the main loop and is written there: a candidate critical object. After a crash it is read back
     * from NVM as it is.
     */
    CANDIDATE,
    /**
     * Written in the main loop but recomputed there or rebuilt by the application's initialization after a crash
     * (MG's residual and right-hand side), and loaded by lane-wise loops beside candidates. It is allocated in the
     * persistent heap like them, so that such a loop sees one kind of memory: MG's Vector API stencils ran 2.5 times
     * as long with these objects in plain arrays (a load site that sees heap-backed and native segments runs the
     * Vector API's Java fallback). A work buffer that no such loop reads is {@link #TEMPORARY}.
     */
    REINITIALIZED,
    /**
     * A work buffer: every iteration writes it before it reads it (EP's batch of random numbers), so nothing in it is
     * needed after a crash, not even initialization (the paper's "temporal" objects, §5.1, which are not read from
     * NVM on a restart). Outside crash-test campaigns it is a plain Java array, as in the paper's app-direct mode,
     * where such data lives in DRAM: EP class A took 2.5 to 4% longer with its buffer in the heap. In a campaign's
     * trace run it is in the heap like every object, for the cache model.
     */
    TEMPORARY,
    /**
     * Written by the application's initialization only, and read in the main loop (a sparse matrix, a table of
     * coefficients): re-created after a crash, like {@link #REINITIALIZED}. Outside crash-test campaigns it is a
     * plain Java array, not in NVM, where keeping it would buy nothing, and the JIT compiles its loops as the plain
     * program's: CG's sparse product with its matrix in the heap took 1.16 times as long (raw heap addresses take
     * registers that an array's base and index do not). In a campaign's trace run it is in the heap like every
     * object, for the cache model. A Vector API loop that loads it beside heap objects loads it from its array
     * ({@code segment().heapBase()}), as {@code DoubleArray}'s bulk operations do: lanes loaded from segments of
     * both kinds at one site run the Vector API's Java fallback.
     */
    READ_ONLY;

    /**
     * Whether a rank keeps an object of this role in the persistent heap outside crash-test campaigns: a candidate or
     * a {@link #REINITIALIZED} object; {@link #TEMPORARY} and {@link #READ_ONLY} ones are plain arrays. (A campaign's
     * trace run keeps every object there.)
     */
    public boolean inHeapOutsideCampaigns() {
        return this == CANDIDATE || this == REINITIALIZED;
    }
}
