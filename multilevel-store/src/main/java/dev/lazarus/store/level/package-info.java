/**
 * The checkpoint levels: where versions live on disk ({@link dev.lazarus.store.level.CheckpointDirectory}), the
 * secure and atomic file operations they share, and (in sub-packages) the L2 redundancy schemes.
 */
package dev.lazarus.store.level;
