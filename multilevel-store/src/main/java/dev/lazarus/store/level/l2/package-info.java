/**
 * The L2 files in a node's L1 version directory: the node's payload (its rank files read as one concatenation), the
 * payload table, the parity and its manifest ({@link dev.lazarus.store.level.l2.ParityManifestLayout}), and the
 * partial-then-rename writers that keep unchecked bytes from ever appearing under a checkpoint file's name, and what
 * a node holds of a version's parity, for reports ({@link dev.lazarus.store.level.l2.ParityStatus}).
 */
package dev.lazarus.store.level.l2;
