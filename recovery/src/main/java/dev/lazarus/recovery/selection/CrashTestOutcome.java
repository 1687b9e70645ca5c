package dev.lazarus.recovery.selection;

/**
 * How an application responded to one crash and restart (paper §4.2, Figure 3).
 *
 * <p>Only {@link #S1} counts as <em>recomputed</em>: the paper defines recomputability with a performance requirement,
 * so a restart that passes verification but needs extra iterations ({@link #S2}) is a restart, not a recomputation
 * (§2.2).
 */
public enum CrashTestOutcome {
    /** Passed acceptance verification without extra iterations: successful recomputation. */
    S1("correct, no extra iterations"),
    /** Passed acceptance verification, but needed at least one iteration more than the crash-free run. */
    S2("correct, extra iterations"),
    /** Could not run to completion: an exception, NaN in the state, or a timeout. */
    S3("interruption: exception, NaN or timeout"),
    /** Failed acceptance verification even after twice as many iterations as the crash-free run. */
    S4("verification fails after 2x iterations");

    private final String description;

    CrashTestOutcome(String description) {
        this.description = description;
    }

    /** True only for {@link #S1}: the outcome the paper's recomputability counts. */
    public boolean recomputed() {
        return this == S1;
    }

    /** One line saying what the outcome means. */
    public String description() {
        return description;
    }
}
