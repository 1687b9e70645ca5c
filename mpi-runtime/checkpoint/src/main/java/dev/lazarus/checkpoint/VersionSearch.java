package dev.lazarus.checkpoint;

import dev.lazarus.store.format.ManifestFiles;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.function.Consumer;

/**
 * Finds which version a rank can try to restore: the newest of which it holds a manifest, not retired, on any level.
 * Reads files only, so it may run on any thread.
 */
final class VersionSearch {
    private final List<CheckpointDirectory> levels;
    private final int rank;
    private final Consumer<String> log;

    /**
     * @param levels the levels searched, in any order
     * @param log    where a level that cannot be listed is reported
     */
    VersionSearch(List<CheckpointDirectory> levels, int rank, Consumer<String> log) {
        this.levels = List.copyOf(levels);
        this.rank = rank;
        this.log = log;
    }

    /**
     * @param verifiedOnly pass over versions whose manifest says they were written from unverified state
     * @return the newest version no newer than {@code bound} of which this rank has a manifest on a level, or -1
     */
    long newestPresent(long bound, boolean verifiedOnly) {
        long best = -1;
        for (CheckpointDirectory level : levels) {
            try {
                List<Long> versions = level.versions();
                for (int i = versions.size() - 1; i >= 0 && versions.get(i) > best; i--) {
                    long v = versions.get(i);
                    if (v <= bound && Files.exists(level.manifestFile(v, rank)) && !level.isRetired(v)
                            && (!verifiedOnly || !unverified(level, v))) {
                        best = v;
                        break;
                    }
                }
            } catch (IOException e) {
                log.accept("rank " + rank + ": cannot list " + level.root() + ": " + e.getMessage());
            }
        }
        return best;
    }

    /** @return whether this rank's manifest of {@code version} on {@code level} is readable and says unverified */
    boolean unverified(CheckpointDirectory level, long version) {
        try {
            return ManifestFiles.read(level.manifestFile(version, rank)).unverified();
        } catch (IOException e) {
            return false; // damaged: the restore says why and passes over it
        }
    }
}
