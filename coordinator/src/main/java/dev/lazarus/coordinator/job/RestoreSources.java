package dev.lazarus.coordinator.job;

import dev.lazarus.recovery.policy.Level;
import dev.lazarus.recovery.policy.failure.VersionOption;
import dev.lazarus.store.catalog.Catalog;
import dev.lazarus.store.catalog.VersionStatus;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The checkpoint versions a relaunch could restore, read from the levels' catalogs: every version complete for every
 * rank on L1 or L3, with its restore time estimated from its bytes and the level's read bandwidth, as the job measured
 * it (bytes over the slowest rank's restore time) or, before a restore was measured, as assumed.
 *
 * @param l1  the job's L1 directory, or null without checkpoints
 * @param pfs the job's L3 directory, or null without one
 */
public record RestoreSources(CheckpointDirectory l1, CheckpointDirectory pfs) {
    /**
     * Read bandwidths, bytes per second, until restores are measured: a RAM disk read by every rank (4.4 GB/s here
     * for 4 ranks x 256 MiB), and the parallel file system (about 0.8 GB/s for L3's composed full copy here).
     */
    static final double L1_BYTES_PER_SECOND = 4e9;
    static final double L3_BYTES_PER_SECOND = 0.8e9;

    /** No checkpoint levels. */
    public static RestoreSources none() {
        return new RestoreSources(null, null);
    }

    /** @return whether the job takes checkpoints (it has at least one level to restore from) */
    boolean any() {
        return l1 != null || pfs != null;
    }

    /**
     * A version a level holds complete, and its size.
     *
     * @param option what the decision weighs
     * @param bytes  the version's bytes on that level, every rank's
     */
    record Listed(VersionOption option, long bytes) {
    }

    /**
     * @param measured the read bandwidth the job measured per level, bytes per second; a level without one is
     *                 assumed to read at its default
     * @return every complete version on each level, with its estimated restore time; unreadable levels give none
     */
    List<Listed> versions(Map<Level, Double> measured) {
        List<Listed> versions = new ArrayList<>();
        add(versions, l1, Level.L1, measured.getOrDefault(Level.L1, L1_BYTES_PER_SECOND));
        add(versions, pfs, Level.L3, measured.getOrDefault(Level.L3, L3_BYTES_PER_SECOND));
        return versions;
    }

    /**
     * @param listed the versions as a decision listed them (a finished run deletes its checkpoints, so the versions
     *               a launch restored are looked up where the decision before it found them)
     * @return the bytes of {@code version} on the level a restore from {@code level} reads (L1 for L1 and L2), or
     *         empty when {@code listed} has no such version complete
     */
    static OptionalLong bytes(List<Listed> listed, Level level, long version) {
        Level listedAs = level == Level.L3 ? Level.L3 : Level.L1;
        return listed.stream().filter(v -> v.option().level() == listedAs && v.option().iteration() == version)
                .mapToLong(Listed::bytes).findFirst();
    }

    private static void add(List<Listed> versions, CheckpointDirectory directory, Level level,
                            double bytesPerSecond) {
        if (directory == null || !Files.isDirectory(directory.root().resolve(directory.job()))) {
            return;
        }
        try {
            for (VersionStatus status : new Catalog(directory).scan(false)) {
                if (status.complete()) {
                    versions.add(new Listed(new VersionOption(level, status.version(),
                            status.bytes() / bytesPerSecond, !status.unverified()), status.bytes()));
                }
            }
        } catch (IOException | RuntimeException e) {
            // A level the coordinator cannot read is one it cannot count on; the ranks check it again anyway.
        }
    }

    /** @return the sources of job {@code job} with L1 under {@code l1Root} and L3 under {@code pfsRoot} (nullable) */
    public static RestoreSources of(Path l1Root, Path pfsRoot, String job) {
        return new RestoreSources(l1Root == null ? null : new CheckpointDirectory(l1Root, job),
                pfsRoot == null ? null : new CheckpointDirectory(pfsRoot, job));
    }
}
