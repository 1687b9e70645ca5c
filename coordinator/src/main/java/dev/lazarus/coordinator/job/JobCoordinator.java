package dev.lazarus.coordinator.job;

import dev.lazarus.coordinator.launch.JobLauncher;
import dev.lazarus.coordinator.launch.LaunchOutcome;
import dev.lazarus.coordinator.launch.LaunchPlan;
import dev.lazarus.coordinator.state.JobState;
import dev.lazarus.coordinator.state.StateFiles;
import dev.lazarus.mpi.launch.LaunchDirective;
import dev.lazarus.recovery.policy.failure.CostBasedDecision;
import dev.lazarus.recovery.policy.failure.CostedPath;
import dev.lazarus.recovery.policy.failure.FailureClass;
import dev.lazarus.recovery.policy.failure.FailureFacts;
import dev.lazarus.recovery.policy.failure.RecoveryDecision;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Runs a job to a verified result without a person: it launches the job, and after a failure it classifies it,
 * weighs the recovery paths ({@link CostBasedDecision}), tells the ranks of the next launch what it chose (a
 * {@link LaunchDirective}) and relaunches, up to {@code --max-restarts} times. A result the acceptance check rejected,
 * bad input, {@code --timeout} and a job that never started are not failures to recover from: their status is the
 * job's. Every failure gets one log line with its numbers, and the run ends with a summary.
 */
public final class JobCoordinator {
    private final Launches launcher;
    private final JobOptions options;
    private final JobDescription job;
    private final StateFiles stateFiles;
    private final Supplier<JobState> cluster;
    private final PrintStream err;

    /**
     * @param launcher runs one launch ({@link JobLauncher#launch})
     * @param options  restarts, recovery mode, hang timeout and where the job's checkpoints are
     * @param err      where the coordinator's lines go
     */
    public JobCoordinator(Launches launcher, JobOptions options, PrintStream err) {
        this(launcher, options, new JobDescription("job", "application", List.of(), 0, List.of()), null, null, err);
    }

    /**
     * A coordinator that keeps the job's state: on disk under {@code stateFiles} from the start (loading what
     * earlier allocations left), and in the job's Hazelcast cluster from its first failure on.
     *
     * @param job        what the job is, for its state
     * @param stateFiles the job's state directory, or null to keep no state
     * @param cluster    starts this coordinator's member of the job's cluster
     */
    public JobCoordinator(Launches launcher, JobOptions options, JobDescription job, StateFiles stateFiles,
                          Supplier<JobState> cluster, PrintStream err) {
        this.launcher = launcher;
        this.options = options;
        this.job = job;
        this.stateFiles = stateFiles;
        this.cluster = cluster;
        this.err = err;
    }

    /** Runs {@code plan} until it succeeds, fails for good or runs out of restarts; returns the job's exit status. */
    public int run(LaunchPlan plan) throws IOException, InterruptedException {
        try (JobLedger ledger = JobLedger.open(job, stateFiles, cluster, err)) {
            return run(plan, ledger);
        }
    }

    private int run(LaunchPlan plan, JobLedger ledger) throws IOException, InterruptedException {
        JobHistory history = new JobHistory();
        ledger.seed(history);
        LaunchDirective directive = LaunchDirective.none();
        List<RestoreSources.Listed> restorable = List.of();
        int crashesBeforeMainLoop = 0;
        int extra = 0;
        for (int launch = 1; ; launch++) {
            LaunchOutcome outcome = launcher.launch(plan, directive, options.hangs());
            long ended = System.nanoTime();
            List<RestoreSources.Listed> listed = restorable;
            history.launched(outcome, (level, version) -> RestoreSources.bytes(listed, level, version));
            ledger.launched(outcome, history);
            Optional<FailureClass> failure = classify(outcome);
            if (failure.isEmpty()) {
                return end(history, outcome, ledger, outcome.kind() == LaunchOutcome.Kind.SUCCEEDED ? "succeeded"
                        : "failed");
            }
            boolean reachedMainLoop = outcome.heartbeats().stream().anyMatch(b -> b.isPresent()
                    && b.get().lastBeatMillis() > 0);
            crashesBeforeMainLoop = reachedMainLoop ? 0 : crashesBeforeMainLoop + 1;
            boolean threw = outcome.kind() == LaunchOutcome.Kind.NVM_ATTEMPT_FAILED;
            if (extra == 0 && threw && launch > options.maxRestarts()) {
                // Recovery invariant 3: an NVM restart that threw is finished by one relaunch that rolls back, even
                // with no restarts left (--max-restarts 0): it ends this recovery rather than starting a new one.
                extra = 1;
                err.println("lazarus: relaunching the job once: its NVM restart failed and was recorded, so this"
                        + " launch rolls back");
            }
            Optional<String> giveUp = launch > options.maxRestarts() + extra
                    ? Optional.of(threw && extra == 1 ? "the relaunch failed its recovery attempt too"
                            : failure.get().description() + " after " + options.maxRestarts()
                                    + " restart(s) (--max-restarts)")
                    : crashesBeforeMainLoop >= 2
                            ? Optional.of("the job failed before its main loop in two launches in a row, which a"
                                    + " relaunch does not mend")
                            : Optional.empty();
            if (giveUp.isPresent()) {
                err.println("lazarus: giving up: " + giveUp.get());
                return end(history, outcome, ledger, "gave up");
            }
            restorable = options.sources().versions(history.restoreBytesPerSecond());
            directive = decide(failure.get(), outcome, history, restorable, launch, options.maxRestarts() + extra,
                    ended, ledger);
        }
    }

    /** @return the failure to recover from, or empty when the launch's status is the job's */
    static Optional<FailureClass> classify(LaunchOutcome outcome) {
        return switch (outcome.kind()) {
            case CRASHED, NVM_ATTEMPT_FAILED -> Optional.of(FailureClass.RANK_CRASH);
            case HUNG -> Optional.of(FailureClass.HANG);
            case SUCCEEDED, FAILED, TIMED_OUT, NOT_STARTED -> Optional.empty();
        };
    }

    /** @param versions the versions the levels hold now, with their restore times */
    private LaunchDirective decide(FailureClass failure, LaunchOutcome outcome, JobHistory history,
                                   List<RestoreSources.Listed> versions, int launch, int restarts, long ended,
                                   JobLedger ledger) {
        Optional<FailureFacts> facts = FailureFactsGatherer.gather(failure, outcome, history, versions,
                options.plannedRecomputability(), options.nvmAllowed());
        double millis = (System.nanoTime() - ended) * 1e-6;
        if (facts.isEmpty()) {
            history.failed(new JobHistory.Failure(launch, failure.description(), null, millis, 0));
            String line = String.format(Locale.ROOT, "failure %d: %s before any rank reached its main loop -> relaunch"
                    + " as before (decided in %.0f ms)", history.failures().size(), failure.description(), millis);
            err.println("lazarus: " + line);
            ledger.failed(line, List.of());
            return LaunchDirective.none();
        }
        RecoveryDecision decision = CostBasedDecision.decide(facts.get(), options.mode());
        millis = (System.nanoTime() - ended) * 1e-6;
        CostedPath chosen = decision.chosen();
        double lost = Math.max(0, facts.get().reachedIteration() - chosen.iteration())
                * facts.get().iterationSeconds();
        history.failed(new JobHistory.Failure(launch, failure.description(), decision, millis, lost));
        String line = String.format(Locale.ROOT, "failure %d: %s (decided in %.0f ms)", history.failures().size(),
                decision.logLine(), millis);
        err.println("lazarus: " + line);
        ledger.failed(line, versions);
        err.printf("lazarus: relaunch %d of at most %d: %s%n", launch, restarts, chosen.name());
        return chosen.kind() == CostedPath.Kind.NVM_RESTART ? LaunchDirective.none()
                : new LaunchDirective(true, chosen.name() + " expected " + String.format(Locale.ROOT,
                        "%.1f s", chosen.expectedSeconds()));
    }

    /** Prints the summary (after failures), records the outcome and returns the job's status. */
    private int end(JobHistory history, LaunchOutcome last, JobLedger ledger, String state) {
        if (!history.failures().isEmpty()) {
            err.println(JobSummary.of(history, last).text());
        }
        ledger.ended(JobSummary.result(last), state, history);
        return last.status();
    }
}
