package dev.lazarus.easycrash;

/**
 * What a rank found in NVM when it attached its heap.
 *
 * @param kind      fresh, resumable or unusable
 * @param iteration the bookmarked main-loop iteration to resume at (resumable only, else 0)
 * @param reason    one line: why the state is unusable, or what was found
 */
public record RecoveryState(Kind kind, int iteration, String reason) {

    public enum Kind {
        /** No heap from an earlier run: start from the beginning. */
        FRESH,
        /** A consistent heap and bookmark: resume at {@code iteration}. */
        RESUMABLE,
        /** A heap that must not be computed on; it was moved aside and a fresh one created (rollback). */
        UNUSABLE
    }

    public static RecoveryState fresh(String reason) {
        return new RecoveryState(Kind.FRESH, 0, reason);
    }

    public static RecoveryState resumable(int iteration) {
        return new RecoveryState(Kind.RESUMABLE, iteration, "bookmark at iteration " + iteration);
    }

    public static RecoveryState unusable(String reason) {
        return new RecoveryState(Kind.UNUSABLE, 0, reason);
    }
}
