package dev.lazarus.store.drain;

/**
 * The outcome of draining one version to one level.
 *
 * @param version the version
 * @param level   "L2" or "L3"
 * @param bytes   bytes written to the level
 * @param nanos   time the drain took
 * @param error   null on success, else the one-line reason (a full file system, a damaged source chunk)
 */
public record DrainResult(long version, String level, long bytes, long nanos, String error) {

    /** @return true if the version reached the level */
    public boolean ok() {
        return error == null;
    }
}
