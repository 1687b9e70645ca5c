package dev.lazarus.store.incremental;

import dev.lazarus.store.CorruptCheckpointException;
import dev.lazarus.store.ProtectedRegion;
import dev.lazarus.store.Variable;
import dev.lazarus.store.format.DataFileReader;
import dev.lazarus.store.format.ManifestFiles;
import dev.lazarus.store.format.RankManifest;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Restores one rank's memory from a version: it follows the version's manifests back to the full checkpoint the
 * increments start from, then applies the base and every increment in order, each chunk checked against its CRC32C.
 */
public final class ChainRestorer {
    /** Longest chain followed; a longer one is treated as damaged. */
    public static final int MAX_CHAIN = 100_000;

    private ChainRestorer() {
    }

    /**
     * Reads and validates the manifests of a version's chain, newest last, without reading data.
     *
     * @throws CorruptCheckpointException if a manifest is missing, damaged, foreign or does not fit the chain
     */
    public static List<RankManifest> chain(CheckpointDirectory directory, long version, int rank, int worldSize)
            throws IOException {
        List<RankManifest> chain = new ArrayList<>();
        long next = version;
        while (true) {
            RankManifest manifest = ManifestFiles.read(directory.manifestFile(next, rank));
            checkIdentity(manifest, directory, next, rank, worldSize);
            // One writer writes a whole chain (a restore or a re-protect starts a new one), so the order is the same.
            if (!chain.isEmpty() && !manifest.variables().equals(chain.getLast().variables())) {
                throw new CorruptCheckpointException(directory.manifestFile(next, rank)
                        + ": variables differ from version " + chain.getLast().version() + "'s");
            }
            chain.add(manifest);
            if (manifest.full()) {
                break;
            }
            if (chain.size() >= MAX_CHAIN) {
                throw new CorruptCheckpointException("version " + version + " rank " + rank + ": chain longer than "
                        + MAX_CHAIN);
            }
            next = manifest.parentVersion();
        }
        Collections.reverse(chain);
        return chain;
    }

    /**
     * Restores {@code regions} from {@code version}. On an exception the regions hold a mix of versions and must not
     * be used; the caller tries another version or level.
     *
     * @return the chain applied, base first
     * @throws CorruptCheckpointException if the chain is damaged or its variables do not match the regions
     */
    public static List<RankManifest> restore(CheckpointDirectory directory, long version, int rank, int worldSize,
                                             List<ProtectedRegion> regions) throws IOException {
        return restore(directory, version, rank, worldSize, regions, DataFileReader.Access.CACHED);
    }

    /**
     * {@link #restore(CheckpointDirectory, long, int, int, List)} with the data files read as {@code access} says
     * (the PFS's, written with O_DIRECT, are read so too).
     */
    public static List<RankManifest> restore(CheckpointDirectory directory, long version, int rank, int worldSize,
                                             List<ProtectedRegion> regions, DataFileReader.Access access)
            throws IOException {
        return restore(directory, chain(directory, version, rank, worldSize), rank, regions, access);
    }

    /**
     * Restores {@code regions} from a chain whose manifests were read and checked before ({@link #chain}); the data
     * files are read and every chunk checked as in {@link #restore(CheckpointDirectory, long, int, int, List)}.
     *
     * @param chain the version's chain, base first, as {@link #chain} returned it
     * @return {@code chain}
     */
    public static List<RankManifest> restore(CheckpointDirectory directory, List<RankManifest> chain, int rank,
                                             List<ProtectedRegion> regions, DataFileReader.Access access)
            throws IOException {
        long version = chain.getLast().version();
        // Loops, not streams and eager messages: a rank's first restore would link each lambda and string
        // concatenation here (milliseconds apiece with more ranks than cores) while the other ranks wait for it.
        List<Variable> expected = new ArrayList<>(regions.size());
        for (ProtectedRegion region : regions) {
            expected.add(region.variable());
        }
        // By name and type, never by position: the writer may have protected them in another order than we do.
        int[] regionOf = VariableMatch.regionIndices(chain.getFirst().variables(), expected, version, rank);
        for (RankManifest manifest : chain) {
            try (DataFileReader data = new DataFileReader(directory.dataFile(manifest.version(), rank), manifest,
                    access)) {
                for (int c = 0; c < manifest.chunks().size(); c++) {
                    data.readInto(c, regions.get(regionOf[manifest.chunks().variable(c)]).memory());
                }
            }
        }
        return chain;
    }

    /**
     * Reads every chunk of a version's chain and checks its CRC32C, restoring nothing.
     *
     * @return the chain, base first
     */
    public static List<RankManifest> verify(CheckpointDirectory directory, long version, int rank, int worldSize)
            throws IOException {
        List<RankManifest> chain = chain(directory, version, rank, worldSize);
        for (RankManifest manifest : chain) {
            try (DataFileReader data = new DataFileReader(directory.dataFile(manifest.version(), rank), manifest)) {
                for (int c = 0; c < manifest.chunks().size(); c++) {
                    data.verify(c);
                }
            }
        }
        return chain;
    }

    private static void checkIdentity(RankManifest manifest, CheckpointDirectory directory, long version, int rank,
                                      int worldSize) throws CorruptCheckpointException {
        String file = directory.manifestFile(version, rank).toString();
        if (!manifest.job().equals(directory.job())) {
            throw new CorruptCheckpointException(file + ": written by job " + manifest.job() + ", not "
                    + directory.job());
        }
        if (manifest.version() != version || manifest.rank() != rank) {
            throw new CorruptCheckpointException(file + ": holds version=" + manifest.version() + " rank="
                    + manifest.rank() + ", not version=" + version + " rank=" + rank);
        }
        if (worldSize > 0 && manifest.worldSize() != worldSize) {
            throw new CorruptCheckpointException(file + ": world size " + manifest.worldSize() + ", expected "
                    + worldSize);
        }
    }
}
