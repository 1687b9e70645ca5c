package dev.lazarus.store.level;

import dev.lazarus.store.JobId;
import dev.lazarus.store.format.RankManifest;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where one job's checkpoints live on one level (the L1 RAM disk, or the L3 parallel file system directory):
 *
 * <pre>
 *   root/
 *     job/                      0700
 *       v000000000042/          0700, one per version
 *         rank-0.data           0600, the chunks
 *         rank-0.manifest       0600, written last and atomically
 *         rank-1.data ...
 * </pre>
 *
 * Paths are built only from the validated job id and numbers, never from names read out of a checkpoint.
 */
public final class CheckpointDirectory {
    private static final Pattern VERSION_DIRECTORY = Pattern.compile("v(\\d{12})");
    private static final Pattern MANIFEST = Pattern.compile("rank-(\\d{1,8})\\.manifest");

    private final Path root;
    private final String job;
    private final Path jobDirectory;

    /**
     * @param root the level's root directory
     * @param job  the job id, validated
     */
    public CheckpointDirectory(Path root, String job) {
        JobId.check(job);
        this.root = root;
        this.job = job;
        this.jobDirectory = root.resolve(job);
    }

    public Path root() {
        return root;
    }

    public String job() {
        return job;
    }

    /** @return the directory of one version */
    public Path versionDirectory(long version) {
        if (version < 0 || version > 999_999_999_999L) {
            throw new IllegalArgumentException("version=" + version + " must be 0 to 999999999999");
        }
        return jobDirectory.resolve(String.format("v%012d", version));
    }

    public Path dataFile(long version, int rank) {
        return versionDirectory(version).resolve("rank-" + checkRank(rank) + ".data");
    }

    public Path manifestFile(long version, int rank) {
        return versionDirectory(version).resolve("rank-" + checkRank(rank) + ".manifest");
    }

    /** Creates the version's directory (and the job's) with mode 0700. */
    public Path createVersion(long version) throws IOException {
        return SecureFiles.createDirectories(versionDirectory(version));
    }

    /** @return the versions present, ascending; an absent job directory has none */
    public List<Long> versions() throws IOException {
        List<Long> versions = new ArrayList<>();
        if (!Files.isDirectory(jobDirectory)) {
            return versions;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(jobDirectory)) {
            for (Path entry : entries) {
                Matcher m = VERSION_DIRECTORY.matcher(entry.getFileName().toString());
                if (m.matches() && Files.isDirectory(entry)) {
                    versions.add(Long.parseLong(m.group(1)));
                }
            }
        }
        versions.sort(null);
        return versions;
    }

    /** @return the ranks with a manifest file in the version's directory, ascending */
    public List<Integer> ranksWithManifest(long version) throws IOException {
        List<Integer> ranks = new ArrayList<>();
        Path directory = versionDirectory(version);
        if (!Files.isDirectory(directory)) {
            return ranks;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
            for (Path entry : entries) {
                Matcher m = MANIFEST.matcher(entry.getFileName().toString());
                if (m.matches()) {
                    ranks.add(Integer.parseInt(m.group(1)));
                }
            }
        }
        ranks.sort(null);
        return ranks;
    }

    /** Deletes a version's directory and everything in it. A missing version is not an error. */
    public void deleteVersion(long version) throws IOException {
        Path directory = versionDirectory(version);
        if (!Files.isDirectory(directory)) {
            return;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
            for (Path entry : entries) {
                Files.delete(entry);
            }
        }
        Files.delete(directory);
    }

    private static int checkRank(int rank) {
        if (rank < 0 || rank >= RankManifest.MAX_WORLD) {
            throw new IllegalArgumentException("rank=" + rank + " out of range");
        }
        return rank;
    }
}
