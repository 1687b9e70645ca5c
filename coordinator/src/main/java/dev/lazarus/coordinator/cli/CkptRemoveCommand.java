package dev.lazarus.coordinator.cli;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code lazarus ckpt rm}: deletes one version, or every version of a job, on the selected levels. */
@Command(name = "rm", mixinStandardHelpOptions = true,
        description = "Delete a version (all ranks' files) or all versions of a job on the selected levels.")
final class CkptRemoveCommand implements Callable<Integer> {

    @ParentCommand
    private CkptCommand parent;

    @Mixin
    CkptLevelOptions levels;

    @ArgGroup(multiplicity = "1")
    Which which;

    /** Exactly one of --version and --all. */
    static final class Which {
        @Option(names = "--version", paramLabel = "V", description = "The version to delete.")
        Long version;

        @Option(names = "--all", description = "Every version of the job.")
        boolean all;
    }

    @Option(names = "--json", description = "Print what was deleted as JSON.")
    boolean json;

    /** One version deleted from one level. */
    private record Removed(String level, long version) {
    }

    @Override
    public Integer call() throws Exception {
        LazarusCli cli = parent.cli();
        if (levels.job == null) {
            throw new IllegalArgumentException("--job is required for rm");
        }
        List<Removed> removed = new ArrayList<>();
        for (CkptLevelOptions.JobLevel level : levels.resolve(cli.environment())) {
            for (long v : level.directory().versions()) {
                if (which.all || which.version == v) {
                    level.directory().deleteVersion(v);
                    removed.add(new Removed(level.level(), v));
                }
            }
            if (which.all && Files.isDirectory(level.root().resolve(levels.job))) {
                level.directory().deleteSpareDataFiles(); // L1's: data files kept for the ranks' next versions
                Files.deleteIfExists(level.root().resolve(levels.job));
            }
        }
        if (removed.isEmpty()) {
            throw new IllegalArgumentException("nothing to delete: job " + levels.job
                    + (which.all ? " has no versions" : " has no version " + which.version) + " on the levels");
        }
        if (json) {
            cli.out().println("{\"job\":\"" + levels.job + "\",\"removed\":[" + String.join(",", removed.stream()
                    .map(r -> "{\"level\":\"" + r.level() + "\",\"version\":" + r.version() + "}").toList()) + "]}");
        } else {
            removed.forEach(r -> cli.out().println("removed " + r.level() + " version " + r.version()));
        }
        return 0;
    }
}
