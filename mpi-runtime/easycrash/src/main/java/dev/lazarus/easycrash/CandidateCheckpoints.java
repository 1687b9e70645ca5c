package dev.lazarus.easycrash;

import dev.lazarus.checkpoint.Checkpoints;
import dev.lazarus.store.ElementType;

import java.util.Comparator;

/** Puts a heap's candidate objects (what NVM keeps across a crash) under the checkpoint client's protection. */
public final class CandidateCheckpoints {

    private CandidateCheckpoints() {
    }

    /**
     * Protects every candidate object of {@code heap} with its element type, in name order: the same on every rank
     * and every launch, whatever order the application attached them in. (A restore matches variables by name and
     * type anyway; a fixed order keeps manifests of one job alike.)
     */
    public static void protect(Checkpoints checkpoints, PersistentHeap heap) {
        heap.objects().values().stream()
                .filter(object -> object.role() == ObjectRole.CANDIDATE)
                .sorted(Comparator.comparing(DataObject::name))
                .forEach(object -> checkpoints.protect(object.name(), object.segment(),
                        ElementType.valueOf(object.elementType().name())));
    }
}
