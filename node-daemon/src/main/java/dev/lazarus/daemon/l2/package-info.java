/**
 * L2 of the checkpoint store on the node daemon: RAID-5 XOR parity across the nodes of an XOR set, over TCP with
 * mutual authentication. {@link dev.lazarus.daemon.l2.L2Server} serves this node's payloads and parity to the set,
 * {@link dev.lazarus.daemon.l2.L2Encoder} writes this node's parity of a version,
 * {@link dev.lazarus.daemon.l2.L2Rebuilder} restores a lost node's files from the survivors, and
 * {@link dev.lazarus.daemon.l2.L2Main} runs them as commands. Settings live in
 * {@link dev.lazarus.daemon.l2.L2Context}. The XOR scheme itself (layout, codec, kernel) is the store's
 * {@code dev.lazarus.store.level.xor}; this package moves its slices between nodes.
 */
package dev.lazarus.daemon.l2;
