package dev.lazarus.coordinator.job;

import dev.lazarus.coordinator.launch.HangWatch;
import dev.lazarus.coordinator.launch.JobLauncher;
import dev.lazarus.coordinator.launch.LaunchOutcome;
import dev.lazarus.coordinator.launch.LaunchPlan;
import dev.lazarus.mpi.launch.LaunchDirective;
import dev.lazarus.recovery.policy.failure.CostBasedDecision;
import dev.lazarus.recovery.policy.failure.CostedPath;
import dev.lazarus.recovery.policy.failure.FailureClass;
import dev.lazarus.recovery.policy.failure.FailureFacts;
import dev.lazarus.recovery.policy.failure.RecoveryDecision;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Optional;

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
    private final PrintStream err;

    /**
     * @param launcher runs one launch ({@link JobLauncher#launch})
     * @param options  restarts, recovery mode, hang timeout and where the job's checkpoints are
     * @param err      where the coordinator's lines go
     */
    public JobCoordinator(Launches launcher, JobOptions options, PrintStream err) {
        this.launcher = launcher;
        this.options = options;
        this.err = err;
    }

    /** Runs {@code plan} until it succeeds, fails for good or runs out of restarts; returns the job's exit status. */
    public int run(LaunchPlan plan) throws IOException, InterruptedException {
        JobHistory history = new JobHistory();
        LaunchDirective directive = LaunchDirective.none();
        int crashesBeforeMainLoop = 0;
        for (int launch = 1; ; launch++) {
            LaunchOutcome outcome = launcher.launch(plan, directive, options.hangs());
            long ended = System.nanoTime();
            history.launched(outcome);
            Optional<FailureClass> failure = classify(outcome);
            if (failure.isEmpty()) {
                summary(history, outcome);
                return outcome.status();
            }
            boolean reachedMainLoop = outcome.heartbeats().stream().anyMatch(b -> b.isPresent()
                    && b.get().lastBeatMillis() > 0);
            crashesBeforeMainLoop = reachedMainLoop ? 0 : crashesBeforeMainLoop + 1;
            if (launch > options.maxRestarts()) {
                err.println("lazarus: giving up: " + failure.get().description() + " after " + options.maxRestarts()
                        + " restart(s) (--max-restarts)");
                summary(history, outcome);
                return outcome.status();
            }
            if (crashesBeforeMainLoop >= 2) {
                err.println("lazarus: giving up: the job failed before its main loop in two launches in a row, which"
                        + " a relaunch does not mend");
                summary(history, outcome);
                return outcome.status();
            }
            directive = decide(failure.get(), outcome, history, launch, ended);
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

    private LaunchDirective decide(FailureClass failure, LaunchOutcome outcome, JobHistory history, int launch,
                                   long ended) {
        Optional<FailureFacts> facts = FailureFactsGatherer.gather(failure, outcome, history, options.sources(),
                options.plannedRecomputability(), options.nvmAllowed());
        double millis = (System.nanoTime() - ended) * 1e-6;
        if (facts.isEmpty()) {
            history.failed(new JobHistory.Failure(launch, failure.description(), null, millis, 0));
            err.printf("lazarus: failure %d: %s before any rank reached its main loop -> relaunch as before"
                    + " (decided in %.0f ms)%n", history.failures().size(), failure.description(), millis);
            return LaunchDirective.none();
        }
        RecoveryDecision decision = CostBasedDecision.decide(facts.get(), options.mode());
        millis = (System.nanoTime() - ended) * 1e-6;
        CostedPath chosen = decision.chosen();
        double lost = Math.max(0, facts.get().reachedIteration() - chosen.iteration())
                * facts.get().iterationSeconds();
        history.failed(new JobHistory.Failure(launch, failure.description(), decision, millis, lost));
        err.printf("lazarus: failure %d: %s (decided in %.0f ms)%n", history.failures().size(), decision.logLine(),
                millis);
        err.printf("lazarus: relaunch %d of at most %d: %s%n", launch, options.maxRestarts(), chosen.name());
        return chosen.kind() == CostedPath.Kind.NVM_RESTART ? LaunchDirective.none()
                : new LaunchDirective(true, chosen.name() + " expected " + String.format(java.util.Locale.ROOT,
                        "%.1f s", chosen.expectedSeconds()));
    }

    private void summary(JobHistory history, LaunchOutcome last) {
        if (history.failures().isEmpty()) {
            return;
        }
        err.println(JobSummary.of(history, last).text());
    }
}
