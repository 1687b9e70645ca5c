package dev.lazarus.coordinator.cli;

import dev.lazarus.checkpoint.CheckpointSettings;
import dev.lazarus.store.DirectoryCheck;
import dev.lazarus.store.JobId;
import dev.lazarus.store.level.CheckpointDirectory;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The options every {@code ckpt} command shares: which levels and which job. Level roots default to the checkpoint
 * client's settings (LAZARUS_CKPT_DIR, LAZARUS_CKPT_PFS_DIR), so the command sees what the ranks wrote.
 */
final class CkptLevelOptions {
    private static final String L1 = "L1";
    private static final String L3 = "L3";

    @Option(names = "--job", paramLabel = "JOB", description = "Only this job (default: every job on the levels).")
    String job;

    @Option(names = "--level", paramLabel = "l1|pfs|all", defaultValue = "all",
            description = "Which levels to look at (default: all).")
    String level;

    @Option(names = "--l1", paramLabel = "DIR", description = "L1 root (default: LAZARUS_CKPT_DIR or "
            + CheckpointSettings.DEFAULT_L1_DIR + ").")
    Path l1;

    @Option(names = "--pfs", paramLabel = "DIR",
            description = "L3 root (default: LAZARUS_CKPT_PFS_DIR or lazarus-ckpt in the working directory).")
    Path pfs;

    /** A level's name, root and one job's directory on it. */
    record JobLevel(String level, Path root, CheckpointDirectory directory) {

        /** @return whether the level's version directories hold this node's L2 parity (L1 does, beside its files) */
        boolean holdsParity() {
            return level.equals(L1);
        }
    }

    /**
     * @return the selected levels' job directories, L1 first
     * @throws IllegalArgumentException for a bad level name or job id
     */
    List<JobLevel> resolve(Map<String, String> environment) throws IOException {
        if (!List.of("l1", "pfs", "all").contains(level)) {
            throw new IllegalArgumentException("--level " + level + " must be l1, pfs or all");
        }
        if (job != null) {
            JobId.check(job);
        }
        CheckpointSettings settings = new CheckpointSettings(new Properties(), environment).conclude("lazarus");
        List<JobLevel> levels = new ArrayList<>();
        // A root the user named must be there; a default one that is missing just holds no job yet.
        if (!level.equals("pfs")) {
            add(levels, L1, l1 != null ? DirectoryCheck.existing("--l1", l1) : settings.l1Directory());
        }
        Path pfsRoot = pfs != null ? DirectoryCheck.existing("--pfs", pfs) : settings.pfsDirectory().orElse(null);
        if (!level.equals("l1") && pfsRoot != null) {
            add(levels, L3, pfsRoot);
        }
        return levels;
    }

    private void add(List<JobLevel> levels, String name, Path root) throws IOException {
        for (String id : job != null ? List.of(job) : jobs(root)) {
            levels.add(new JobLevel(name, root, new CheckpointDirectory(root, id)));
        }
    }

    /** @return the job directories under a root whose names are valid job ids, sorted */
    private static List<String> jobs(Path root) throws IOException {
        List<String> jobs = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            return jobs;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(root)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (JobId.valid(name) && Files.isDirectory(entry)) {
                    jobs.add(name);
                }
            }
        }
        jobs.sort(null);
        return jobs;
    }
}
