/**
 * The multi-level checkpoint store: the checkpoint data model and self-describing format ({@code format}), dirty
 * detection by page tracking plus block hashing ({@code dirty}, {@code incremental}), the levels' directories
 * ({@code level}), the L2 formats and XOR codec ({@code level.l2}, {@code level.xor}), the catalog and retention
 * ({@code catalog}), the asynchronous drain ({@code drain}, {@code agent}), the secure file primitives every one of
 * them opens files with ({@code files}), and HDF5 export ({@code export}). Delta compression (AIC) and typed
 * compression and aggregation (mcrEngine) are not written yet. It knows nothing of MPI, the node daemon or Hazelcast.
 */
package dev.lazarus.store;
