package dev.lazarus.store.level;

import dev.lazarus.store.JobId;
import dev.lazarus.store.files.SecureFiles;
import dev.lazarus.store.format.RankManifest;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
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
 * Paths are built only from the validated job id and numbers, never from names read out of a checkpoint. The job's
 * and the versions' directories must be real directories of the running user ({@link SecureFiles#checkOwnDirectory}):
 * anything that creates, lists or deletes in them refuses them otherwise, before touching anything, and a version
 * directory that is a link is not listed as a version.
 */
public final class CheckpointDirectory {
    private static final Pattern VERSION_DIRECTORY = Pattern.compile("v(\\d{12})");
    private static final Pattern MANIFEST = Pattern.compile("rank-(\\d{1,8})\\.manifest");
    private static final Pattern SPARE = Pattern.compile("spare-rank-\\d{1,8}\\.data");
    /** Name of the {@link #retiredMarker}. */
    public static final String RETIRED = "retired";

    private final Path root;
    private final String job;
    private final Path jobDirectory;
    private final boolean recyclesDataFiles;

    /**
     * @param root the level's root directory
     * @param job  the job id, validated
     */
    public CheckpointDirectory(Path root, String job) {
        this(root, job, false);
    }

    /**
     * @param root              the level's root directory
     * @param job               the job id, validated
     * @param recyclesDataFiles whether a pruned version's data file is kept as its rank's {@link #spareDataFile},
     *                          whose pages the rank's next data file overwrites: on a RAM disk that spares the
     *                          allocation and zeroing of every page (and, in a virtual machine, the host's fault
     *                          behind each page the guest touches anew)
     */
    public CheckpointDirectory(Path root, String job, boolean recyclesDataFiles) {
        JobId.check(job);
        this.root = root;
        this.job = job;
        this.jobDirectory = root.resolve(job);
        this.recyclesDataFiles = recyclesDataFiles;
    }

    /** @return whether pruned data files are kept as spares for the next ones (see the constructor) */
    public boolean recyclesDataFiles() {
        return recyclesDataFiles;
    }

    /**
     * @return the file a rank's pruned data file is kept as, when this directory recycles them: in the job's
     *         directory, outside every version
     */
    public Path spareDataFile(int rank) {
        return jobDirectory.resolve("spare-rank-" + checkRank(rank) + ".data");
    }

    /**
     * Deletes every rank's spare data file in the job's directory (a job removed whole leaves none behind); files of
     * other names, links and directories are left alone.
     *
     * @throws UnsafePathException if the job's directory is a link or not the running user's
     */
    public void deleteSpareDataFiles() throws IOException {
        if (!SecureFiles.checkOwnDirectory(jobDirectory)) {
            return;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(jobDirectory)) {
            for (Path entry : entries) {
                if (SPARE.matcher(entry.getFileName().toString()).matches()
                        && Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
                    Files.deleteIfExists(entry);
                }
            }
        }
    }

    /**
     * Removes a rank's data file of a version: deleted, or, when this directory recycles data files, kept as the
     * rank's spare unless the spare already held is at least as large (then deleted). Missing: nothing happens.
     */
    public void discardDataFile(long version, int rank) throws IOException {
        Path data = dataFile(version, rank);
        if (!recyclesDataFiles) {
            Files.deleteIfExists(data);
            return;
        }
        Path spare = spareDataFile(rank);
        try {
            BasicFileAttributes candidate = Files.readAttributes(data, BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
            BasicFileAttributes held = Files.exists(spare, LinkOption.NOFOLLOW_LINKS)
                    ? Files.readAttributes(spare, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS) : null;
            if (!candidate.isRegularFile() || held != null && held.isRegularFile() && held.size() >= candidate.size()) {
                Files.delete(data);
            } else {
                Files.move(data, spare, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (NoSuchFileException e) {
            // already gone
        }
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
        return jobDirectory.resolve(versionName(version));
    }

    /**
     * "v" and the version in 12 digits. Not {@code String.format}: its first call in a process loads the locale data,
     * 15 ms of a relaunched rank's first restore (30-45 ms with 4 ranks on 2 cores).
     */
    private static String versionName(long version) {
        String digits = Long.toString(version);
        StringBuilder name = new StringBuilder(13).append('v');
        for (int i = digits.length(); i < 12; i++) {
            name.append('0');
        }
        return name.append(digits).toString();
    }

    public Path dataFile(long version, int rank) {
        return versionDirectory(version).resolve("rank-" + checkRank(rank) + ".data");
    }

    public Path manifestFile(long version, int rank) {
        return versionDirectory(version).resolve("rank-" + checkRank(rank) + ".manifest");
    }

    /**
     * The marker retention creates in a version's directory before it deletes any rank's files of it: a version
     * directory holding it is being pruned, so missing ranks there are not damage, and it is never restored.
     */
    public Path retiredMarker(long version) {
        return versionDirectory(version).resolve(RETIRED);
    }

    /** @return whether retention started pruning the version ({@link #retiredMarker}) */
    public boolean isRetired(long version) {
        return Files.exists(retiredMarker(version), LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * Checks the job's directory, if it exists, before a run relies on it: a run whose every checkpoint would be
     * refused is better refused at its start.
     *
     * @throws UnsafePathException if it is a link, not a directory, or not the running user's directory
     */
    public void checkJobDirectory() throws IOException {
        SecureFiles.checkOwnDirectory(jobDirectory);
    }

    /**
     * Creates the version's directory (and the job's) with mode 0700.
     *
     * @throws UnsafePathException if either exists as a link or is not the running user's directory
     */
    public Path createVersion(long version) throws IOException {
        Path directory = versionDirectory(version);
        SecureFiles.createOwnDirectory(jobDirectory);
        return SecureFiles.createOwnDirectory(directory);
    }

    /**
     * @return the versions present, ascending; an absent job directory has none
     * @throws UnsafePathException if the job directory is a link or not the running user's directory
     */
    public List<Long> versions() throws IOException {
        List<Long> versions = new ArrayList<>();
        if (!SecureFiles.checkOwnDirectory(jobDirectory)) {
            return versions;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(jobDirectory)) {
            for (Path entry : entries) {
                Matcher m = VERSION_DIRECTORY.matcher(entry.getFileName().toString());
                if (m.matches() && Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
                    versions.add(Long.parseLong(m.group(1)));
                }
            }
        }
        versions.sort(null);
        return versions;
    }

    /**
     * @return the ranks with a manifest file in the version's directory, ascending
     * @throws UnsafePathException if the job's or the version's directory is a link or not the running user's
     */
    public List<Integer> ranksWithManifest(long version) throws IOException {
        List<Integer> ranks = new ArrayList<>();
        Path directory = versionDirectory(version);
        if (!SecureFiles.checkOwnDirectory(jobDirectory) || !SecureFiles.checkOwnDirectory(directory)) {
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

    /**
     * Deletes a version's directory if it holds nothing but, perhaps, its {@link #retiredMarker}; a directory with
     * anyone's files in it stays (another rank of the node wrote or removed meanwhile: its files, its business).
     */
    public void deleteVersionIfEmpty(long version) throws IOException {
        Path directory = versionDirectory(version);
        if (!SecureFiles.checkOwnDirectory(jobDirectory) || !SecureFiles.checkOwnDirectory(directory)) {
            return;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
            for (Path entry : entries) {
                if (!entry.getFileName().toString().equals(RETIRED)) {
                    return;
                }
            }
        } catch (java.nio.file.NoSuchFileException e) {
            return;
        }
        try {
            Files.deleteIfExists(retiredMarker(version));
            Files.delete(directory);
        } catch (java.nio.file.DirectoryNotEmptyException | java.nio.file.NoSuchFileException e) {
            // written or removed meanwhile by another rank of the node
        }
    }

    /**
     * Deletes a version's directory and everything in it. A missing version is not an error.
     *
     * @throws UnsafePathException if the job's or the version's directory is a link or not the running user's
     */
    public void deleteVersion(long version) throws IOException {
        Path directory = versionDirectory(version);
        if (!SecureFiles.checkOwnDirectory(jobDirectory) || !SecureFiles.checkOwnDirectory(directory)) {
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
