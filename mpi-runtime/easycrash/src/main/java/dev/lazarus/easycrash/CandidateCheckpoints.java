package dev.lazarus.easycrash;

import dev.lazarus.checkpoint.Checkpoints;
import dev.lazarus.store.ElementType;

/** Puts a heap's candidate objects (what NVM keeps across a crash) under the checkpoint client's protection. */
public final class CandidateCheckpoints {

    private CandidateCheckpoints() {
    }

    /** Protects every candidate object of {@code heap}, in the heap's object order, with its element type. */
    public static void protect(Checkpoints checkpoints, PersistentHeap heap) {
        for (DataObject object : heap.objects().values()) {
            if (object.role() == ObjectRole.CANDIDATE) {
                checkpoints.protect(object.name(), object.segment(),
                        ElementType.valueOf(object.elementType().name()));
            }
        }
    }
}
