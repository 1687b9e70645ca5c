package dev.lazarus.easycrash;

/** What a data object is to EasyCrash (paper §5.1). */
public enum ObjectRole {
    /**
     * Lives through the main loop and is written there: a candidate critical object. After a crash it is read back
     * from NVM as it is.
     */
    CANDIDATE,
    /**
     * Temporary, or written in the main loop but recomputed there: re-created by the application's initialization
     * after a crash. It is allocated in the heap, so that the crash emulator sees its cache traffic and the loops that
     * mix it with candidates see one kind of memory (see {@link #READ_ONLY}).
     */
    REINITIALIZED,
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
     * Whether a rank keeps an object of this role in the persistent heap outside crash-test campaigns: every role but
     * {@link #READ_ONLY}. (A campaign's trace run keeps every object there.)
     */
    public boolean inHeapOutsideCampaigns() {
        return this != READ_ONLY;
    }
}
