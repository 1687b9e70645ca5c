package dev.lazarus.store.catalog;

import dev.lazarus.store.format.PageFilter;
import dev.lazarus.store.format.RankManifest;
import dev.lazarus.store.incremental.ChainRestorer;
import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.store.level.l2.ParityStatus;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one level holds of a job, read from the files themselves: the files are the truth, so nothing can disagree
 * with them. A version is complete only when every rank's manifest, and the chain it increments, is intact (and, when
 * asked, every chunk's checksum). Damaged parts are reported with their reason, never thrown. On L1, the level whose
 * version directories also hold the node's L2 parity, each version's status carries that parity's status too.
 */
public final class Catalog {
    private final CheckpointDirectory directory;
    private final boolean holdsParity;

    /** A catalog of a level without L2 parity (L3, or an L1 read only for its rank files). */
    public Catalog(CheckpointDirectory directory) {
        this(directory, false);
    }

    /**
     * @param holdsParity the version directories hold this node's L2 parity (L1 does): read and report it, checking
     *                    its checksum when the data is verified
     */
    public Catalog(CheckpointDirectory directory, boolean holdsParity) {
        this.directory = directory;
        this.holdsParity = holdsParity;
    }

    /**
     * @param verifyData also read every chunk of every chain and check its CRC32C
     * @return the status of every version present, oldest first
     */
    public List<VersionStatus> scan(boolean verifyData) throws IOException {
        List<VersionStatus> statuses = new ArrayList<>();
        for (long version : directory.versions()) {
            statuses.add(status(version, verifyData));
        }
        return statuses;
    }

    /** @return the status of one version */
    public VersionStatus status(long version, boolean verifyData) throws IOException {
        List<Integer> present = directory.ranksWithManifest(version);
        List<String> problems = new ArrayList<>();
        List<Integer> usable = new ArrayList<>();
        int worldSize = 0;
        boolean full = true;
        long bytes = 0;
        List<PageFilter> filters = new ArrayList<>();
        boolean unverified = false;
        for (int rank : present) {
            bytes += size(directory.manifestFile(version, rank)) + size(directory.dataFile(version, rank));
            try {
                List<RankManifest> chain = verifyData
                        ? ChainRestorer.verify(directory, version, rank, 0)
                        : ChainRestorer.chain(directory, version, rank, 0);
                RankManifest newest = chain.getLast();
                if (worldSize == 0) {
                    worldSize = newest.worldSize();
                } else if (newest.worldSize() != worldSize) {
                    problems.add("rank " + rank + ": world size " + newest.worldSize() + ", other ranks say "
                            + worldSize);
                    continue;
                }
                full &= newest.full();
                filters.add(newest.pageFilter());
                unverified |= newest.unverified();
                usable.add(rank);
            } catch (IOException e) {
                problems.add("rank " + rank + ": " + e.getMessage());
            }
        }
        Set<Integer> presentSet = new HashSet<>(present);
        TreeSet<Integer> missing = new TreeSet<>();
        for (int rank = 0; rank < worldSize; rank++) {
            if (!presentSet.contains(rank)) {
                missing.add(rank);
            }
        }
        if (!missing.isEmpty()) {
            problems.add("ranks " + missing + " have no manifest");
        }
        ParityStatus l2 = holdsParity ? ParityStatus.read(directory, version, verifyData) : ParityStatus.NONE;
        return new VersionStatus(version, worldSize, usable, full && !usable.isEmpty(), bytes, problems, verifyData,
                PageFilter.of(filters), directory.isRetired(version), unverified, l2);
    }

    /**
     * @param verifyData check chunk checksums too
     * @return the newest complete version, if any; damaged newer versions are skipped
     */
    public Optional<VersionStatus> newestComplete(boolean verifyData) throws IOException {
        List<Long> versions = directory.versions();
        for (int i = versions.size() - 1; i >= 0; i--) {
            VersionStatus status = status(versions.get(i), verifyData);
            if (status.complete()) {
                return Optional.of(status);
            }
        }
        return Optional.empty();
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }
}
