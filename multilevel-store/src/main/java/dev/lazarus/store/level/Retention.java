package dev.lazarus.store.level;

import dev.lazarus.store.format.RankManifest;
import dev.lazarus.store.incremental.ChainRestorer;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * Removes one rank's files of versions that no kept version needs. A version is needed if it is kept or lies in the
 * chain of a kept one; other ranks' files are never touched, and a version directory goes once it is empty. Versions
 * newer than the newest kept one are left alone, since another rank of the node may be writing one.
 */
public final class Retention {

    private Retention() {
    }

    /**
     * @param keep versions to keep restorable, with their chains
     * @return the versions whose files of this rank were deleted
     */
    public static Set<Long> prune(CheckpointDirectory directory, int rank, Collection<Long> keep) throws IOException {
        Set<Long> needed = new HashSet<>();
        for (long version : keep) {
            try {
                for (RankManifest manifest : ChainRestorer.chain(directory, version, rank, 0)) {
                    needed.add(manifest.version());
                }
            } catch (IOException e) {
                needed.add(version); // a damaged chain is not pruned here; the catalog reports it
            }
        }
        // Versions newer than every kept one may be being written by another rank of the node: never touched.
        long newestKept = keep.stream().mapToLong(Long::longValue).max().orElse(Long.MAX_VALUE);
        Set<Long> deleted = new HashSet<>();
        for (long version : directory.versions()) {
            if (needed.contains(version) || version > newestKept) {
                continue;
            }
            boolean any = Files.deleteIfExists(directory.manifestFile(version, rank));
            any |= Files.deleteIfExists(directory.dataFile(version, rank));
            if (any) {
                deleted.add(version);
            }
            deleteIfEmpty(directory.versionDirectory(version));
        }
        return deleted;
    }

    private static void deleteIfEmpty(Path versionDirectory) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(versionDirectory)) {
            if (entries.iterator().hasNext()) {
                return;
            }
        } catch (java.nio.file.NoSuchFileException e) {
            return;
        }
        try {
            Files.delete(versionDirectory);
        } catch (java.nio.file.DirectoryNotEmptyException | java.nio.file.NoSuchFileException e) {
            // another rank of this node wrote or removed meanwhile: its files, its business
        }
    }
}
