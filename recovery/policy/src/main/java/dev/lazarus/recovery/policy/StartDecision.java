package dev.lazarus.recovery.policy;

/**
 * How every rank starts.
 *
 * @param path      resume from NVM, start with no state anywhere, or roll back (set NVM aside)
 * @param iteration the bookmarked iteration to resume at (resume only, else 0)
 * @param reason    one line for the log
 */
public record StartDecision(Path path, int iteration, String reason) {

    /** What the ranks do with their NVM state. */
    public enum Path {
        /** Every rank resumes at {@code iteration} with its objects as NVM kept them. */
        RESUME_FROM_NVM,
        /** No rank has state from an earlier run: restore the newest checkpoint if any, else the beginning. */
        START_FRESH,
        /** Some rank's state must not be used: set it aside, restore the newest checkpoint if any, else begin. */
        ROLL_BACK
    }
}
