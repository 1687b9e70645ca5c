/**
 * The asynchronous drain of L1 versions to the slower levels (the papers' checkpointing core): per-level intervals,
 * back-pressure, checksummed copies, and results that report failures without losing anything.
 */
package dev.lazarus.store.drain;
