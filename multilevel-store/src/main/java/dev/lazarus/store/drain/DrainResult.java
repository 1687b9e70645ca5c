package dev.lazarus.store.drain;

import java.util.List;

/**
 * The outcome of draining one version to one level.
 *
 * @param version the version
 * @param level   "L2" or "L3"
 * @param bytes   bytes written to the level
 * @param nanos   time the drain took
 * @param error   null on success, else the one-line reason (a full file system, a damaged source chunk), naming the
 *                stage that failed
 * @param stages  what each stage did, in order, up to the one that failed
 */
public record DrainResult(long version, String level, long bytes, long nanos, String error,
                          List<StageOutcome> stages) {

    public DrainResult {
        stages = List.copyOf(stages);
    }

    /** @return true if the version reached the level */
    public boolean ok() {
        return error == null;
    }
}
