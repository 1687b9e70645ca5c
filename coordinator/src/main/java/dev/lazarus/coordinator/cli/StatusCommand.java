package dev.lazarus.coordinator.cli;

import dev.lazarus.coordinator.state.StateFiles;
import dev.lazarus.coordinator.state.StateReport;
import dev.lazarus.coordinator.state.StateSnapshot;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/**
 * {@code lazarus status}: a job's recovery state as the coordinator kept it (launches, failures and the decision
 * taken for each with its numbers, the checkpoint catalog it weighed, statistics), read from the state directory.
 */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Show a job's recovery state: launches, failures, decisions, catalog, statistics.")
final class StatusCommand implements Callable<Integer> {

    @ParentCommand
    private LazarusCli cli;

    @Mixin
    JobStateOptions state;

    @Option(names = "--json", description = "Print JSON instead of the table.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        StateFiles files = state.files(cli.environment(), "show");
        StateSnapshot snapshot = StateSnapshot.read(files);
        if (snapshot.job().isEmpty() && snapshot.events().isEmpty()) {
            throw new IllegalArgumentException("no state of job " + state.job + " in "
                    + files.jobDirectory().getParent());
        }
        StateReport report = new StateReport(snapshot);
        cli.out().println(json ? report.json() : report.table());
        return 0;
    }
}
