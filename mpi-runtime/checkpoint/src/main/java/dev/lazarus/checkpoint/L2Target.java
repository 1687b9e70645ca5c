package dev.lazarus.checkpoint;

import dev.lazarus.store.drain.DrainTarget;

import java.io.IOException;

/** Drains a version to L2 by encoding the node's XOR parity of it, on the node's leader. */
final class L2Target implements DrainTarget {
    private final L2Node node;
    private final int every;

    L2Target(L2Node node, int every) {
        if (every < 1) {
            throw new IllegalArgumentException("L2 interval every=" + every + " must be at least 1");
        }
        this.node = node;
        this.every = every;
    }

    @Override
    public String level() {
        return "L2";
    }

    @Override
    public int every() {
        return every;
    }

    /** The encoder reads every member's L1 files of the version. */
    @Override
    public boolean readsOtherNodes() {
        return true;
    }

    @Override
    public long drain(long version) throws IOException {
        return node.encodeWithChain(version);
    }
}
