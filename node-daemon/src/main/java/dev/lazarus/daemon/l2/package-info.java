/**
 * L2's transport and work on the node daemon: RAID-5 XOR parity (or partner copies) across the nodes of a set, over
 * TCP with mutual authentication. {@link dev.lazarus.daemon.l2.L2Server} serves this node's payloads and parity to
 * the set, {@link dev.lazarus.daemon.l2.L2Encoder} writes this node's parity of a version,
 * {@link dev.lazarus.daemon.l2.L2Rebuilder} restores a lost node's files from the survivors, and
 * {@link dev.lazarus.daemon.l2.L2Main} runs them as commands. Settings live in
 * {@link dev.lazarus.daemon.l2.L2Context}. The files it reads and writes (payload tables, parity manifests) are the
 * store's {@code dev.lazarus.store.level.l2}, and the XOR scheme itself (layout, codec, kernel) is the store's
 * {@code dev.lazarus.store.level.xor}; this package moves their bytes between nodes.
 */
package dev.lazarus.daemon.l2;
