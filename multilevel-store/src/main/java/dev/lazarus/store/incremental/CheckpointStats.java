package dev.lazarus.store.incremental;

/**
 * What one rank's checkpoint of one version cost and saved. The three sizes compare the schemes of libhashckpt
 * Table 1 on the same data: a full checkpoint, a page-level incremental one, and the block-level one written.
 *
 * @param version        the version written
 * @param parentVersion  the version it increments, or -1 for a full checkpoint
 * @param fullBytes      bytes of every protected variable: a full checkpoint's size
 * @param pageLevelBytes bytes of the pages written since the last checkpoint (plus received ranges, rounded out to
 *                       pages): what page-protection incremental checkpointing would save; equal to fullBytes where
 *                       pages are not tracked
 * @param blockLevelBytes bytes of the blocks whose hash changed: what hash-based incremental checkpointing saves
 * @param dataBytes      bytes written to the data file: fullBytes for a full checkpoint, blockLevelBytes otherwise
 * @param manifestBytes  bytes of the manifest
 * @param blocksHashed   blocks hashed to find the changed ones
 * @param hashNanos      time spent scanning pages and hashing
 * @param writeNanos     time spent writing data and manifest, fsync included
 */
public record CheckpointStats(long version, long parentVersion, long fullBytes, long pageLevelBytes,
                              long blockLevelBytes, long dataBytes, long manifestBytes, long blocksHashed,
                              long hashNanos, long writeNanos) {

    /** @return true if the checkpoint is full */
    public boolean full() {
        return parentVersion < 0;
    }
}
