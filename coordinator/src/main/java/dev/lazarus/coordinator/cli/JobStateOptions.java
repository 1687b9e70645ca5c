package dev.lazarus.coordinator.cli;

import dev.lazarus.coordinator.state.StateFiles;
import dev.lazarus.store.JobId;
import picocli.CommandLine.Option;

import java.util.Map;

/** The options of the commands that work on a job's kept state ({@code status}, {@code halt}): the job and where. */
final class JobStateOptions {
    @Option(names = "--job", paramLabel = "ID", required = true, description = "The job (the id given to run --job,"
            + " or the application's name).")
    String job;

    @Option(names = "--state-dir", paramLabel = "DIR",
            description = "The state directory (default: LAZARUS_COORDINATOR_STATE_DIR or ~/.lazarus/state).")
    String stateDirectory;

    /**
     * @param needsState what the command cannot do without kept state, for the error ("show", "halt")
     * @return the job's state files
     * @throws IllegalArgumentException one line for a bad job id or a state directory that is off
     */
    StateFiles files(Map<String, String> environment, String needsState) {
        JobId.check(job);
        if ("off".equals(stateDirectory)) {
            throw new IllegalArgumentException("--state-dir off keeps no state to " + needsState);
        }
        StateFiles files = JobKeeping.of(environment, stateDirectory, job, null, null).files();
        if (files == null) {
            throw new IllegalArgumentException("LAZARUS_COORDINATOR_STATE_DIR is off: no state is kept to "
                    + needsState);
        }
        return files;
    }
}
