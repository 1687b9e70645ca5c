package dev.lazarus.checkpoint;

import dev.lazarus.store.drain.DrainStage;
import dev.lazarus.store.drain.DrainTarget;

import java.util.List;

/** Drains a version to L2 by encoding the node's XOR parity of it, on the node's leader: one stage, encode. */
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

    /** One stage, "encode": the node daemon writes the node's parity of the version and of its chain. */
    @Override
    public List<DrainStage> stages() {
        return List.of(DrainStage.of("encode", node::encodeWithChain));
    }
}
