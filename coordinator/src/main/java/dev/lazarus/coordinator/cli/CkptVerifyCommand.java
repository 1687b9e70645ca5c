package dev.lazarus.coordinator.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/**
 * {@code lazarus ckpt verify}: reads every chunk of every version's chain and checks its CRC32C. Exit status 1 if any
 * version looked at is incomplete or damaged.
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = "Check every chunk's checksum; exit status 1 if any version is incomplete or damaged.")
final class CkptVerifyCommand implements Callable<Integer> {

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
        CatalogReport report = CatalogReport.scan(levels.resolve(cli.environment()), version, true);
        if (report.entries().isEmpty() && version != null) {
            throw new IllegalArgumentException("no level holds version " + version);
        }
        if (json) {
            cli.out().println(report.json());
        } else {
            report.printTable(cli.out());
        }
        return report.allComplete() ? 0 : 1;
    }
}
