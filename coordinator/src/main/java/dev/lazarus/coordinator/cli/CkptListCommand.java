package dev.lazarus.coordinator.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/** {@code lazarus ckpt list}: the versions on each level, complete or not and why, from manifests only. */
@Command(name = "list", mixinStandardHelpOptions = true,
        description = "List checkpoint versions per level and job: complete or not, ranks, size, problems.")
final class CkptListCommand implements Callable<Integer> {

    @ParentCommand
    private CkptCommand parent;

    @Mixin
    CkptLevelOptions levels;

    @Option(names = "--version", paramLabel = "V", description = "Only this version.")
    Long version;

    @Option(names = "--json", description = "Print JSON instead of the table.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        LazarusCli cli = parent.cli();
        CatalogReport report = CatalogReport.scan(levels.resolve(cli.environment()), version, false);
        if (json) {
            cli.out().println(report.json());
        } else {
            report.printTable(cli.out());
        }
        return 0;
    }
}
