/**
 * L2 of the multi-level store, the XOR level: RAID-5 parity across a set of nodes after LLNL SCR (and its successor
 * redset). It owns the set layout ({@link dev.lazarus.store.level.xor.XorSetLayout}: chunk size and which member's
 * parity each data chunk goes into), the payload sources a member's checkpoint files are read through, the XOR
 * kernel, and the single-node streaming codec that encodes parity chunks and rebuilds one lost member. Moving slices
 * between nodes is the node daemon's job; it drives {@link dev.lazarus.store.level.xor.XorKernel#xorInto} per slice.
 */
package dev.lazarus.store.level.xor;
