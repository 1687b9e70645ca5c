/**
 * Dirty detection for incremental checkpoints: the page-level pre-filter ({@link
 * dev.lazarus.store.dirty.WrittenPageScanner}), the block hashes that find which blocks really changed, and the
 * marks left by MPI receive hooks for ranges the network wrote.
 */
package dev.lazarus.store.dirty;
