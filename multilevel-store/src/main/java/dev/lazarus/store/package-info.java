/**
 * The multi-level checkpoint store: the checkpoint data model and self-describing format, dirty detection (page
 * tracking plus block hashing), delta compression, typed compression and aggregation, the L1 (RAM disk), L2
 * (XOR/partner) and L3 (parallel file system) levels with checksums and the catalog, and HDF5 export. It knows
 * nothing of MPI or Hazelcast.
 */
package dev.lazarus.store;
