package dev.lazarus.store.catalog;

import dev.lazarus.store.format.ManifestLayout;
import dev.lazarus.store.format.RankManifest;
import dev.lazarus.store.incremental.ChainRestorer;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.LongFunction;
import java.util.function.LongPredicate;

/**
 * Removes one rank's files of versions that no kept version needs. A version is needed if it is kept or lies in the
 * chain of a kept one; other ranks' files are never touched, and a version directory goes once it is empty. Versions
 * newer than the newest kept one are left alone, since another rank of the node may be writing one. L1 keeps the
 * versions the ranks agreed were complete ({@link #prune}); L3 keeps the newest complete ones
 * ({@link #pruneToNewestComplete}).
 */
public final class Retention {

    private Retention() {
    }

    /**
     * @param keep versions to keep restorable, with their chains
     * @return the versions whose files of this rank were deleted
     */
    public static Set<Long> prune(CheckpointDirectory directory, int rank, Collection<Long> keep) throws IOException {
        return prune(directory, rank, keep, version -> OptionalLong.empty());
    }

    /**
     * Like {@link #prune(CheckpointDirectory, int, Collection)}, but follows chains through the parents the caller
     * knows, reading manifests only from the first version it does not know on.
     *
     * @param keep         versions to keep restorable, with their chains
     * @param knownParents the parent of a version of this rank in this directory ({@link ManifestLayout#NO_PARENT}
     *                     for a full one), or empty if unknown: e.g. {@code IncrementalCheckpointer::parentOf} of the
     *                     checkpointer that wrote them
     * @return the versions whose files of this rank were deleted
     */
    public static Set<Long> prune(CheckpointDirectory directory, int rank, Collection<Long> keep,
                                  LongFunction<OptionalLong> knownParents) throws IOException {
        Set<Long> needed = new HashSet<>();
        for (long version : keep) {
            addChain(directory, rank, version, knownParents, needed);
        }
        // Versions newer than every kept one may be being written by another rank of the node: never touched.
        long newestKept = keep.stream().mapToLong(Long::longValue).max().orElse(Long.MAX_VALUE);
        Set<Long> deleted = new HashSet<>();
        for (long version : directory.versions()) {
            if (needed.contains(version) || version > newestKept) {
                continue;
            }
            if (deleteRankFiles(directory, rank, version)) {
                deleted.add(version);
            }
        }
        return deleted;
    }

    /**
     * Deletes one rank's files of a version (its data file kept as the rank's spare where the directory recycles
     * them, {@link CheckpointDirectory#discardDataFile}), marking the version retired first ({@link
     * CheckpointDirectory#retiredMarker}): a crash part way through pruning, after some ranks' files went and
     * others' did not, then leaves a version the catalog reports as being pruned, not as damaged, and that restart
     * passes over. The directory goes with its last rank's files.
     *
     * @return whether this rank had files of the version
     */
    public static boolean deleteRankFiles(CheckpointDirectory directory, int rank, long version) throws IOException {
        Path manifest = directory.manifestFile(version, rank);
        Path data = directory.dataFile(version, rank);
        if (!Files.exists(manifest, LinkOption.NOFOLLOW_LINKS) && !Files.exists(data, LinkOption.NOFOLLOW_LINKS)) {
            directory.deleteVersionIfEmpty(version);
            return false;
        }
        try {
            Files.createFile(directory.retiredMarker(version),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (FileAlreadyExistsException alreadyRetired) {
            // another rank of this node started first
        }
        Files.deleteIfExists(manifest); // the manifest first: without it the data is an unfinished write
        directory.discardDataFile(version, rank);
        directory.deleteVersionIfEmpty(version);
        return true;
    }

    /**
     * Keeps the newest {@code keep} complete versions at or below {@code newest} (with their chains) and deletes one
     * rank's files of every version older than all of them, complete or not: an incomplete version older than a
     * complete one can never be restored. An incomplete version between kept ones stays until it is older than all
     * of them, since the files alone cannot tell a part still being written from a lost one; versions newer than
     * the newest kept one are never touched. With no complete version, nothing is deleted.
     *
     * @param newest   the newest version that may be kept; newer ones may still be written
     * @param keep     complete versions to keep; 0 keeps every version
     * @param complete whether a version is complete on this level (every rank's part intact), asked newest first
     *                 and only until {@code keep} are found
     * @return the versions whose files of this rank were deleted
     */
    public static Set<Long> pruneToNewestComplete(CheckpointDirectory directory, int rank, long newest, int keep,
                                                  LongPredicate complete) throws IOException {
        return pruneToNewestComplete(directory, rank, newest, keep, complete, Set.of());
    }

    /**
     * Like {@link #pruneToNewestComplete(CheckpointDirectory, int, long, int, LongPredicate)}, but never deletes
     * {@code preserved} versions (with their chains): e.g. the verified versions a run resumed from unverified state
     * must keep until its acceptance check passes (recovery invariant 2).
     */
    public static Set<Long> pruneToNewestComplete(CheckpointDirectory directory, int rank, long newest, int keep,
                                                  LongPredicate complete, Collection<Long> preserved)
            throws IOException {
        if (keep < 0) {
            throw new IllegalArgumentException("keep=" + keep + " must be 0 or more");
        }
        if (keep == 0) {
            return Set.of();
        }
        List<Long> versions = directory.versions();
        List<Long> kept = new ArrayList<>(); // newest first
        for (int i = versions.size() - 1; i >= 0 && kept.size() < keep; i--) {
            long version = versions.get(i);
            if (version <= newest && complete.test(version)) {
                kept.add(version);
            }
        }
        if (kept.isEmpty()) {
            return Set.of();
        }
        long oldestKept = kept.getLast();
        long newestKept = kept.getFirst();
        List<Long> spared = new ArrayList<>(versions.stream().filter(v -> v >= oldestKept && v <= newestKept)
                .toList());
        preserved.stream().filter(v -> v <= newestKept).forEach(spared::add);
        return prune(directory, rank, spared);
    }

    /** Adds {@code version} and the versions of its chain to {@code needed}. */
    private static void addChain(CheckpointDirectory directory, int rank, long version,
                                 LongFunction<OptionalLong> knownParents, Set<Long> needed) {
        long next = version;
        for (int length = 0; length < ChainRestorer.MAX_CHAIN; length++) {
            OptionalLong parent = knownParents.apply(next);
            if (parent.isEmpty()) {
                break;
            }
            needed.add(next);
            if (parent.getAsLong() == ManifestLayout.NO_PARENT) {
                return;
            }
            next = parent.getAsLong();
        }
        try {
            for (RankManifest manifest : ChainRestorer.chain(directory, next, rank, 0)) {
                needed.add(manifest.version());
            }
        } catch (IOException e) {
            needed.add(next); // a damaged chain is not pruned here; the catalog reports it
        }
    }
}
