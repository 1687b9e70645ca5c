package dev.lazarus.coordinator.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/** What {@code ckpt list} and {@code ckpt verify} share: scan the levels' catalogs and print a table or JSON. */
abstract class CatalogCommand implements Callable<Integer> {

    @ParentCommand
    private CkptCommand parent;

    @Mixin
    CkptLevelOptions levels;

    @Option(names = "--version", paramLabel = "V", description = "Only this version.")
    Long version;

    @Option(names = "--json", description = "Print JSON instead of the table.")
    boolean json;

    /** @return true to read every chunk and check its checksum, false to read manifests only */
    abstract boolean verifyData();

    /** @return the exit status for a report that has been printed */
    abstract int status(CatalogReport report);

    @Override
    public Integer call() throws Exception {
        LazarusCli cli = parent.cli();
        CatalogReport report = CatalogReport.scan(levels.resolve(cli.environment()), version, verifyData());
        if (report.entries().isEmpty() && version != null) {
            throw new IllegalArgumentException("no level holds version " + version);
        }
        if (json) {
            cli.out().println(report.json());
        } else {
            report.printTable(cli.out());
        }
        return status(report);
    }
}
