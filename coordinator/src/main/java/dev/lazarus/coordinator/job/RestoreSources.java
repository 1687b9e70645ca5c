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

/**
 * The checkpoint versions a relaunch could restore, read from the levels' catalogs: every version complete for every
 * rank on L1 or L3, with its restore time estimated from its bytes and the level's bandwidth.
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

    /** @return every complete version on each level, with its estimated restore time; unreadable levels give none */
    List<VersionOption> versions() {
        List<VersionOption> versions = new ArrayList<>();
        add(versions, l1, Level.L1, L1_BYTES_PER_SECOND);
        add(versions, pfs, Level.L3, L3_BYTES_PER_SECOND);
        return versions;
    }

    private static void add(List<VersionOption> versions, CheckpointDirectory directory, Level level,
                            double bytesPerSecond) {
        if (directory == null || !Files.isDirectory(directory.root().resolve(directory.job()))) {
            return;
        }
        try {
            for (VersionStatus status : new Catalog(directory).scan(false)) {
                if (status.complete()) {
                    versions.add(new VersionOption(level, status.version(), status.bytes() / bytesPerSecond,
                            !status.unverified()));
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
