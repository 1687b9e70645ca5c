package dev.lazarus.checkpoint;

import dev.lazarus.store.incremental.CheckpointStats;

/**
 * The outcome of one coordinated checkpoint, as this rank saw it.
 *
 * @param version     the version
 * @param complete    true if every rank wrote its part to L1: the version can be restored
 * @param stats       this rank's write, or null if it failed
 * @param error       this rank's failure, or null
 * @param drainWaitNanos time this rank waited for the previous version's drain (back-pressure)
 */
public record CheckpointReport(long version, boolean complete, CheckpointStats stats,
                               String error, long drainWaitNanos) {
}
