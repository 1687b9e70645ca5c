package dev.lazarus.store.drain;

import java.util.List;

/**
 * A level that versions drain to from L1, off the application's critical path, as the chain of stages a version goes
 * through on its way there.
 */
public interface DrainTarget {

    /** @return the level's name for reports: "L2", "L3" */
    String level();

    /** @return every how many L1 versions one goes to this level; 1 sends every version */
    int every();

    /**
     * @return the stages a version of this rank goes through to reach the level, in order (at least one); the last
     *         one puts it there (and whatever of its chain the level lacks)
     */
    List<DrainStage> stages();

    /**
     * @return whether draining reads files on other nodes (L2 parity reads the whole XOR set's L1). Those nodes keep
     *         a version only while its drain holds up this node's next checkpoint, so an agent with such a target
     *         makes every version wait for the drain before it, drained or not.
     */
    default boolean readsOtherNodes() {
        return false;
    }
}
