package dev.lazarus.coordinator.job;

import dev.lazarus.mpi.launch.HeartbeatFile.HeartbeatSnapshot;
import dev.lazarus.mpi.launch.HeartbeatFile;
import dev.lazarus.recovery.policy.Level;
import dev.lazarus.recovery.policy.failure.VersionOption;
import dev.lazarus.store.catalog.Catalog;
import dev.lazarus.store.catalog.VersionStatus;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * The checkpoint versions a relaunch could restore: every version complete for every rank on L1 or L3, with its
 * restore time estimated from its bytes and the level's read bandwidth, as the job measured it (bytes over the slowest
 * rank's restore time) or, before a restore was measured, as assumed. L3, and L1 of a job on this host alone, are read
 * from the levels' catalogs; the L1 of a job on several nodes, whose RAM disks this host cannot read, from the lists
 * the ranks' heartbeats carry of what each holds.
 *
 * @param l1     the job's L1 directory, or null without checkpoints
 * @param pfs    the job's L3 directory, or null without one
 * @param l1Here whether the job's L1 is on this host (it runs here alone), so its catalog can be read
 */
public record RestoreSources(CheckpointDirectory l1, CheckpointDirectory pfs, boolean l1Here) {
    /**
     * Read bandwidths, bytes per second, until restores are measured: a RAM disk read by every rank (4.4 GB/s here
     * for 4 ranks x 256 MiB), and the parallel file system (about 0.8 GB/s for L3's composed full copy here).
     */
    static final double L1_BYTES_PER_SECOND = 4e9;
    static final double L3_BYTES_PER_SECOND = 0.8e9;
    /**
     * An L1 version rebuilt from L2 first, until measured: twice L3's, as FTI's L2 and L3 restores of the same 4 ranks
     * x 256 MiB compare on these machines (2.12 s against 4.22 s).
     */
    static final double L2_BYTES_PER_SECOND = 2 * L3_BYTES_PER_SECOND;

    /** No checkpoint levels. */
    public static RestoreSources none() {
        return new RestoreSources(null, null, true);
    }

    /** @return whether the job takes checkpoints (it has at least one level to restore from) */
    boolean any() {
        return l1 != null || pfs != null;
    }

    /**
     * A version a level holds complete, and its size.
     *
     * @param option   what the decision weighs
     * @param bytes    the version's bytes on that level, every rank's
     * @param l2Parity whether every node has written its L2 parity of it (an L1 version of a job on several nodes), so
     *                 a lost node's files can be rebuilt from its set
     */
    record Listed(VersionOption option, long bytes, boolean l2Parity) {
    }

    /**
     * @param measured the read bandwidth the job measured per level, bytes per second; a level without one is
     *                 assumed to read at its default
     * @param beats    the failed launch's heartbeats, one per rank
     * @return every complete version on each level, with its estimated restore time; unreadable levels give none
     */
    List<Listed> versions(Map<Level, Double> measured, List<Optional<HeartbeatSnapshot>> beats) {
        List<Listed> versions = new ArrayList<>();
        double l1Speed = measured.getOrDefault(Level.L1, L1_BYTES_PER_SECOND);
        if (l1Here) {
            add(versions, l1, Level.L1, l1Speed);
        } else if (l1 != null) {
            versions.addAll(heldByEveryRank(beats, l1Speed));
        }
        add(versions, pfs, Level.L3, measured.getOrDefault(Level.L3, L3_BYTES_PER_SECOND));
        return versions;
    }

    /**
     * @return the L1 versions every rank's heartbeat lists, their bytes summed; none when some rank has no heartbeat
     *         (it left no list, so its node's L1 is unknown)
     */
    static List<Listed> heldByEveryRank(List<Optional<HeartbeatSnapshot>> beats, double bytesPerSecond) {
        if (beats.isEmpty() || beats.stream().anyMatch(Optional::isEmpty)) {
            return List.of();
        }
        // Per version: bytes, ranks that hold it, ranks whose node wrote its parity.
        Map<Long, long[]> sums = new TreeMap<>();
        Set<Long> unverified = new HashSet<>();
        for (Optional<HeartbeatSnapshot> beat : beats) {
            for (HeartbeatFile.Held held : beat.orElseThrow().heldOnL1()) {
                long[] sum = sums.computeIfAbsent(held.version(), v -> new long[3]);
                sum[0] += held.bytes();
                sum[1]++;
                sum[2] += held.l2Parity() ? 1 : 0;
                if (!held.verified()) {
                    unverified.add(held.version());
                }
            }
        }
        List<Listed> listed = new ArrayList<>();
        sums.forEach((version, sum) -> {
            if (sum[1] == beats.size()) {
                listed.add(new Listed(new VersionOption(Level.L1, version, sum[0] / bytesPerSecond,
                        !unverified.contains(version)), sum[0], sum[2] == beats.size()));
            }
        });
        return listed;
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
                    // One host: no L2 to rebuild from.
                    versions.add(new Listed(new VersionOption(level, status.version(),
                            status.bytes() / bytesPerSecond, !status.unverified()), status.bytes(), false));
                }
            }
        } catch (IOException | RuntimeException e) {
            // A level the coordinator cannot read is one it cannot count on; the ranks check it again anyway.
        }
    }

    /**
     * @param l1Here whether the job runs on this host alone, so its L1 catalog can be read here
     * @return the sources of job {@code job} with L1 under {@code l1Root} and L3 under {@code pfsRoot} (nullable)
     */
    public static RestoreSources of(Path l1Root, Path pfsRoot, String job, boolean l1Here) {
        return new RestoreSources(l1Root == null ? null : new CheckpointDirectory(l1Root, job),
                pfsRoot == null ? null : new CheckpointDirectory(pfsRoot, job), l1Here);
    }
}
