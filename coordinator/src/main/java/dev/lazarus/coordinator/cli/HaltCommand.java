package dev.lazarus.coordinator.cli;

import dev.lazarus.coordinator.state.HaltRequest;
import dev.lazarus.coordinator.state.StateFiles;
import dev.lazarus.coordinator.state.StateRecords;
import dev.lazarus.coordinator.state.StateSnapshot;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/**
 * {@code lazarus halt}: asks a running job to stop cleanly after its next complete checkpoint (or at once with
 * {@code --now}, or from {@code --after} seconds on). The job's {@code lazarus run} sees the request within a second
 * and ends with exit status 75; running the same command again resumes the job from that checkpoint.
 */
@Command(name = "halt", mixinStandardHelpOptions = true,
        description = "Stop a running job cleanly after its next checkpoint; the same run command resumes it.")
final class HaltCommand implements Callable<Integer> {
    /** The longest {@code --after}: a week. */
    static final long MAX_AFTER_SECONDS = 7 * 24 * 3600L;

    @ParentCommand
    private LazarusCli cli;

    @Mixin
    JobStateOptions state;

    @ArgGroup(exclusive = true)
    When when;

    /** When the job stops; without either option, after its next checkpoint. */
    static final class When {
        @Option(names = "--now", description = "Kill the job now instead of waiting for a checkpoint (NVM and the"
                + " checkpoints keep what they hold).")
        boolean now;

        @Option(names = "--after", paramLabel = "SECONDS",
                description = "Stop after the first checkpoint that follows this many seconds from now.")
        Long afterSeconds;

        @Option(names = "--cancel", description = "Withdraw a pending halt request.")
        boolean cancel;
    }

    @Override
    public Integer call() throws Exception {
        StateFiles files = state.files(cli.environment(), "halt");
        String job = state.job;
        if (when != null && when.cancel) {
            cli.out().println(HaltRequest.withdraw(files) ? "lazarus: halt request of job " + job + " withdrawn"
                    : "lazarus: job " + job + " has no pending halt request");
            return 0;
        }
        long after = when == null || when.afterSeconds == null ? 0 : when.afterSeconds;
        if (after < 0 || after > MAX_AFTER_SECONDS) {
            throw new IllegalArgumentException("--after=" + after + " must be 0 to " + MAX_AFTER_SECONDS + " seconds");
        }
        StateSnapshot snapshot = StateSnapshot.read(files);
        if (snapshot.job().isEmpty()) {
            throw new IllegalArgumentException("no job " + job + " in " + files.jobDirectory().getParent()
                    + " (halt names a job started with lazarus run --job, or by its application's name)");
        }
        String state = snapshot.job().map(StateRecords.Job::state).orElseThrow();
        if (!state.equals("running")) {
            throw new IllegalArgumentException("job " + job + " is not running (it " + state + "); nothing to halt");
        }
        boolean now = when != null && when.now;
        long millis = System.currentTimeMillis();
        new HaltRequest(now, millis + after * 1000, millis).post(files);
        cli.out().println("lazarus: job " + job + " will " + (now ? "stop now" : "stop after its next checkpoint"
                + (after > 0 ? " from " + after + " s on" : "")) + "; its lazarus run ends with exit status 75, and"
                + " the same run command resumes it");
        return 0;
    }
}
