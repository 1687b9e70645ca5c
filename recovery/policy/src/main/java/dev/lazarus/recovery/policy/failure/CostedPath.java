package dev.lazarus.recovery.policy.failure;

import dev.lazarus.recovery.policy.Level;

/**
 * One way to recover, with its expected time to a verified result.
 *
 * @param kind            NVM restart, restore of a checkpoint version, or the beginning
 * @param level           the level a restore reads (null otherwise)
 * @param iteration       where the run goes on after: the bookmark, the version's iteration, or 0
 * @param expectedSeconds expected time from the relaunch to a verified result
 * @param detail          how the time is made up, for the log
 */
public record CostedPath(Kind kind, Level level, long iteration, double expectedSeconds, String detail) {

    /** The three kinds of path. */
    public enum Kind {
        /** Resume every rank from its NVM state; the acceptance verification judges the result. */
        NVM_RESTART,
        /** Restore a checkpoint version from a level. */
        RESTORE,
        /** Start from the beginning. */
        BEGINNING
    }

    /** @return the path's name in the log: "NVM restart at 812", "L1 v800", "L3 v400", "beginning" */
    public String name() {
        return switch (kind) {
            case NVM_RESTART -> "NVM restart at " + iteration;
            case RESTORE -> level + " v" + iteration;
            case BEGINNING -> "beginning";
        };
    }

    @Override
    public String toString() {
        return name() + " " + Seconds.text(expectedSeconds) + " (" + detail + ")";
    }
}
