package dev.lazarus.checkpoint;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Says a level's failures once per run of failures, not once per version: a full RAM disk fails every checkpoint
 * after it, and a node daemon that died or a full PFS every drain, and one line per checkpoint buries the rest of the
 * log. The version that reaches the level again is said with the count of those that did not.
 */
final class LevelFailureLog {
    private final Map<String, Long> failingSince = new HashMap<>();
    private final Map<String, Integer> failed = new HashMap<>();

    /** @return the line to say for a version that did not reach {@code level}, or empty when one was said already */
    synchronized Optional<String> failed(String level, long version, String error) {
        failed.merge(level, 1, Integer::sum);
        if (failingSince.putIfAbsent(level, version) != null) {
            return Optional.empty();
        }
        return Optional.of("version " + version + " did not reach " + level + ": " + error + " (the next versions"
                + " that do not are not said until one does)");
    }

    /** @return the line to say when {@code version} reached {@code level} after some did not, else empty */
    synchronized Optional<String> reached(String level, long version) {
        Long since = failingSince.remove(level);
        if (since == null) {
            return Optional.empty();
        }
        return Optional.of("version " + version + " reached " + level + " again; " + failed.remove(level)
                + " version(s) from " + since + " on did not");
    }
}
