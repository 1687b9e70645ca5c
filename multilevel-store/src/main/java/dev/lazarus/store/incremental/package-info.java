/**
 * Hash-based incremental checkpoints of one rank (libhashckpt): finding the changed blocks, writing them with a
 * manifest, and composing a base and its increments on restore.
 */
package dev.lazarus.store.incremental;
