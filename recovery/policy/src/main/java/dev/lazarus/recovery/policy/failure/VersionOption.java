package dev.lazarus.recovery.policy.failure;

import dev.lazarus.recovery.policy.Level;

/**
 * A checkpoint version every rank can restore from one level.
 *
 * @param level          where it is read from ({@link Level#L2}: L1 after a rebuild of the lost nodes' files)
 * @param iteration      the iteration the version was taken after; the run goes on from the next one
 * @param restoreSeconds the time to read it back (bytes over the level's measured bandwidth, plus any rebuild)
 * @param verified       whether an acceptance check has passed on the state it was written from
 */
public record VersionOption(Level level, long iteration, double restoreSeconds, boolean verified) {
}
