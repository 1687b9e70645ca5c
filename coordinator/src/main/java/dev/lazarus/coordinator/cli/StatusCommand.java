package dev.lazarus.coordinator.cli;

import dev.lazarus.coordinator.state.StateFiles;
import dev.lazarus.coordinator.state.StateReport;
import dev.lazarus.coordinator.state.StateSnapshot;
import dev.lazarus.store.JobId;
import picocli.CommandLine.Command;
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

    @Option(names = "--job", paramLabel = "ID", required = true, description = "The job (the id given to run --job,"
            + " or the application's name).")
    String job;

    @Option(names = "--state-dir", paramLabel = "DIR",
            description = "The state directory (default: LAZARUS_COORDINATOR_STATE_DIR or ~/.lazarus/state).")
    String stateDirectory;

    @Option(names = "--json", description = "Print JSON instead of the table.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        JobId.check(job);
        if ("off".equals(stateDirectory)) {
            throw new IllegalArgumentException("--state-dir off keeps no state to show");
        }
        StateFiles files = JobKeeping.of(cli.environment(), stateDirectory, job, null, null).files();
        if (files == null) {
            throw new IllegalArgumentException("LAZARUS_COORDINATOR_STATE_DIR is off: no state is kept");
        }
        StateSnapshot snapshot = StateSnapshot.read(files);
        if (snapshot.job().isEmpty() && snapshot.events().isEmpty()) {
            throw new IllegalArgumentException("no state of job " + job + " in " + files.jobDirectory().getParent());
        }
        StateReport report = new StateReport(snapshot);
        cli.out().println(json ? report.json() : report.table());
        return 0;
    }
}
