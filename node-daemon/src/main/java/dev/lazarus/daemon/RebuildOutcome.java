package dev.lazarus.daemon;

import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What {@link NodeDaemon#rebuild} did.
 *
 * @param rebuilt       the versions whose rank files were rebuilt, ascending
 * @param failedVersion the version of the chain that could not be rebuilt, or -1
 * @param failure       why, one line, or null when every version of the chain was rebuilt
 */
public record RebuildOutcome(SortedSet<Long> rebuilt, long failedVersion, String failure) {

    public RebuildOutcome {
        rebuilt = new TreeSet<>(rebuilt);
        if ((failure == null) != (failedVersion < 0)) {
            throw new IllegalArgumentException("rebuild outcome failedVersion=" + failedVersion + " failure="
                    + failure + ": both or neither");
        }
    }

    /** @return an outcome in which every version of the chain was rebuilt */
    public static RebuildOutcome done(Set<Long> rebuilt) {
        return new RebuildOutcome(new TreeSet<>(rebuilt), -1, null);
    }

    /** @return an outcome in which {@code version} could not be rebuilt */
    public static RebuildOutcome failed(Set<Long> rebuilt, long version, String failure) {
        return new RebuildOutcome(new TreeSet<>(rebuilt), version, failure);
    }

    /** @return whether the whole chain was rebuilt */
    public boolean succeeded() {
        return failure == null;
    }
}
