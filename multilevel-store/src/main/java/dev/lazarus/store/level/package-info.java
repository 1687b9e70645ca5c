/**
 * The checkpoint levels: where versions live on disk ({@link dev.lazarus.store.level.CheckpointDirectory}), and (in
 * sub-packages) L2's files ({@code l2}) and its XOR codec ({@code xor}).
 */
package dev.lazarus.store.level;
