package dev.lazarus.coordinator.job;

import dev.lazarus.coordinator.launch.HaltCheck;
import dev.lazarus.coordinator.launch.HostLoss;
import dev.lazarus.coordinator.launch.JobLauncher;
import dev.lazarus.coordinator.launch.LaunchOutcome;
import dev.lazarus.coordinator.launch.LaunchPlan;
import dev.lazarus.coordinator.state.HaltRequest;
import dev.lazarus.coordinator.state.StateFiles;
import dev.lazarus.mpi.launch.LaunchDirective;
import dev.lazarus.recovery.policy.Level;
import dev.lazarus.recovery.policy.failure.CostBasedDecision;
import dev.lazarus.recovery.policy.failure.CostedPath;
import dev.lazarus.recovery.policy.failure.FailureClass;
import dev.lazarus.recovery.policy.failure.FailureFacts;
import dev.lazarus.recovery.policy.failure.Recomputability;
import dev.lazarus.recovery.policy.failure.RecoveryDecision;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Runs a job to a verified result without a person: it launches the job, and after a failure it classifies it,
 * weighs the recovery paths ({@link CostBasedDecision}), tells the ranks of the next launch what it chose (a
 * {@link LaunchDirective}) and relaunches, up to {@code --max-restarts} times. A result the acceptance check rejected,
 * bad input, {@code --timeout} and a job that never started are not failures to recover from: their status is the
 * job's. Every failure gets one log line with its numbers, and the run ends with a summary.
 */
public final class JobCoordinator {
    /** The job's state after a halt after a checkpoint ({@code lazarus halt}). */
    static final String HALTED = "halted";
    /** The job's state after {@code lazarus halt --now}. */
    static final String HALTED_NOW = "halted now";
    private final Launches launcher;
    private final JobOptions options;
    private final JobDescription job;
    private final StateFiles stateFiles;
    private final StateCluster cluster;
    private final JobHosts hosts;
    private final PrintStream err;

    /**
     * @param launcher runs one launch ({@link JobLauncher#launch})
     * @param options  restarts, recovery mode, hang timeout and where the job's checkpoints are
     * @param err      where the coordinator's lines go
     */
    public JobCoordinator(Launches launcher, JobOptions options, PrintStream err) {
        this(launcher, options, new JobDescription("job", "application", List.of(), 0, List.of()), null,
                StateCluster.atFirstFailure(null), JobHosts.THIS_HOST, err);
    }

    /**
     * A coordinator that keeps the job's state: on disk under {@code stateFiles} from the start (loading what
     * earlier allocations left), and in the job's Hazelcast cluster from its first failure on, or from the start
     * when node daemons are its members.
     *
     * @param job        what the job is, for its state
     * @param stateFiles the job's state directory, or null to keep no state
     * @param cluster    this coordinator's member of the job's cluster, and from when it serves the state
     * @param hosts      the job's nodes: which a failed launch lost, and the spares that replace them
     */
    public JobCoordinator(Launches launcher, JobOptions options, JobDescription job, StateFiles stateFiles,
                          StateCluster cluster, JobHosts hosts, PrintStream err) {
        this.launcher = launcher;
        this.options = options;
        this.job = job;
        this.stateFiles = stateFiles;
        this.cluster = cluster;
        this.hosts = hosts;
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
        boolean checkpointing = options.sources().any();
        HaltCheck halts = stateFiles == null ? HaltCheck.NEVER : new HaltRequests(stateFiles, checkpointing, err);
        // A job halted after a checkpoint resumes from it: that state was verified, what NVM holds of it is not.
        LaunchDirective directive = ledger.priorState().equals(HALTED) && checkpointing
                ? new LaunchDirective(true, "resuming the halted job from its checkpoint") : LaunchDirective.none();
        List<RestoreSources.Listed> restorable = List.of();
        int crashesBeforeMainLoop = 0;
        LevelIncidents incidents = new LevelIncidents(err);
        int extra = 0;
        LaunchPlan current = plan;
        for (int launch = 1; ; launch++) {
            StartWatch started = new StartWatch(ledger, options.hangs());
            long startedMillis = System.currentTimeMillis();
            LaunchOutcome outcome = launcher.launch(current, directive.withEstimates(ledger.mtbfSeconds(history),
                    intervalRecomputability(history)), options.hangs(), halts, started);
            outcome = started.hangFoundByANodeDaemon(outcome);
            long ended = System.nanoTime();
            List<RestoreSources.Listed> listed = restorable;
            history.launched(outcome, startedMillis, (level, version) -> RestoreSources.bytes(listed, level, version));
            ledger.launched(outcome, history);
            incidents.noteCorrupt(outcome, ledger);
            int number = launch;
            RecoveryTiming.of(outcome).ifPresent(line -> {
                err.println("lazarus: launch " + number + ": " + line);
                ledger.recovered("launch " + number + ": " + line);
            });
            Optional<FailureClass> failure = classify(outcome);
            if (failure.isPresent() && outcome.verifiedBeforeItEnded()) {
                // The verdict is collective: every rank had it, and some may have released their checkpoints
                // already, so a relaunch could only start over to compute the same result again.
                err.println("lazarus: " + failure.get().description() + " (ranks " + outcome.silentRanks()
                        + " without a status) after every rank's result was verified, while the ranks released"
                        + " their NVM state and levels: the result stands, no relaunch");
                ledger.recovered("launch " + launch + ": " + failure.get().description() + " after the result was"
                        + " verified; not relaunched");
                outcome = outcome.asVerified();
                failure = Optional.empty();
            }
            HostLoss lostAtStart = null;
            if (failure.isEmpty() && outcome.kind() == LaunchOutcome.Kind.NOT_STARTED && launch > 1) {
                // A relaunch the launcher could not start: a node lost since the last failure (a second node of a
                // rack, one whose power-off came a moment later) is a failure like any other. With every node
                // answering it is the job's status, as for a first launch (--hosts, --rsh-agent, --net).
                lostAtStart = hosts.survey();
                if (lostAtStart.any()) {
                    err.println("lazarus: launch " + launch + " could not start its ranks: a node was lost since"
                            + " the last failure");
                    failure = Optional.of(FailureClass.NODE_LOSS);
                }
            }
            if (failure.isEmpty()) {
                return end(history, outcome, ledger, switch (outcome.kind()) {
                    case SUCCEEDED -> "succeeded";
                    // Every rank recorded the halt after the same checkpoint; killed at once, they recorded nothing.
                    case HALTED -> outcome.silentRanks().isEmpty() ? HALTED : HALTED_NOW;
                    default -> "failed";
                });
            }
            HostLoss loss = lostAtStart != null ? lostAtStart : hosts.survey();
            if (loss.any()) {
                // The nodes' own state decides the class: a lost node took its NVM and RAM disk with it.
                failure = Optional.of(loss.lostSet().isPresent() ? FailureClass.L2_SET_LOST : FailureClass.NODE_LOSS);
                loss.lost().forEach(h -> ledger.nodes("node " + h.host() + " was lost: it " + h.how()));
                loss.lostSet().ifPresent(set -> err.println("lazarus: nodes " + set + " of one L2 set were lost:"
                        + " no rebuild brings their L1 files back"));
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
            if (!hosts.replaceable(loss)) {
                err.println("lazarus: giving up: no node is left to run the lost nodes' ranks");
                return end(history, outcome, ledger, "gave up");
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
            restorable = incidents.withoutCorrupt(options.sources().versions(history.restoreBytesPerSecond(),
                    outcome.heartbeats()));
            LaunchDirective previous = directive;
            directive = decide(failure.get(), outcome, hosts.movesRanks(loss) ? loss.withoutRebuild() : loss, history,
                    restorable, launch, options.maxRestarts() + extra, ended, ledger);
            if (lostAtStart != null) {
                // Nothing ran since the last decision, so it stands, but a lost node's NVM is gone: a rollback in any
                // case. Where the newly lost node's files cannot be rebuilt, the ranks' checks take L3 or an older
                // version.
                directive = previous.rollBack() ? previous
                        : new LaunchDirective(true, "a node was lost before the relaunch started");
            }
            Optional<LaunchPlan> next = hosts.next(current, loss);
            if (next.isEmpty()) {
                err.println("lazarus: giving up: no node is left to run the lost nodes' ranks");
                return end(history, outcome, ledger, "gave up");
            }
            if (!next.get().equals(current)) {
                ledger.nodesNow(hosts.nodes());
            }
            current = next.get();
        }
    }

    /**
     * @return R as {@code --ckpt-every auto} should plan with it: the plan's and the job's NVM restarts' estimate,
     *         0 when the job never resumes from NVM, NaN when nothing is known (the interval then assumes every
     *         failure rolls back, rather than the decision's even prior)
     */
    private double intervalRecomputability(JobHistory history) {
        if (!options.nvmAllowed()) {
            return 0.0;
        }
        if (options.plannedRecomputability() == null && history.nvmAttempts() == 0) {
            return Double.NaN;
        }
        return Recomputability.estimate(options.plannedRecomputability(), history.nvmAttempts(),
                history.nvmAccepted()).value();
    }

    /**
     * @return the failure to recover from, or empty when the launch's status is the job's: a crash of a launch in
     *         which a level had no room is classified as disk full
     */
    static Optional<FailureClass> classify(LaunchOutcome outcome) {
        return switch (outcome.kind()) {
            case CRASHED -> Optional.of(LevelIncidents.full(outcome).isPresent() ? FailureClass.DISK_FULL
                    : FailureClass.RANK_CRASH);
            case NVM_ATTEMPT_FAILED -> Optional.of(FailureClass.RANK_CRASH);
            case HUNG -> Optional.of(FailureClass.HANG);
            case SUCCEEDED, FAILED, TIMED_OUT, NOT_STARTED, HALTED -> Optional.empty();
        };
    }

    /** @param versions the versions the levels hold now, with their restore times */
    private LaunchDirective decide(FailureClass failure, LaunchOutcome outcome, HostLoss loss, JobHistory history,
                                   List<RestoreSources.Listed> versions, int launch, int restarts, long ended,
                                   JobLedger ledger) {
        Optional<FailureFacts> facts = FailureFactsGatherer.gather(failure, outcome, loss, history, versions,
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
        // The ranks restore the chosen version (an older one where some rank cannot); each reads L1 where its files
        // survived, and a node that lost them rebuilds them from L2 unless L3 was chosen over that rebuild.
        return chosen.kind() == CostedPath.Kind.NVM_RESTART ? LaunchDirective.none()
                : new LaunchDirective(true, chosen.name() + " expected " + String.format(Locale.ROOT,
                        "%.1f s", chosen.expectedSeconds())).restoring(chosen.kind() == CostedPath.Kind.BEGINNING
                                ? LaunchDirective.BEGINNING : chosen.iteration(), chosen.level() != Level.L3);
    }

    /**
     * Prints the summary (after failures), records the outcome and returns the job's status. A halt request is used up
     * by the halt; one still pending when the job ended otherwise is withdrawn, so it cannot stop the next run.
     */
    private int end(JobHistory history, LaunchOutcome last, JobLedger ledger, String state) {
        if (stateFiles != null) {
            try {
                if (HaltRequest.withdraw(stateFiles) && last.kind() != LaunchOutcome.Kind.HALTED) {
                    err.println("lazarus: the pending halt request was withdrawn: the job ended before it took"
                            + " effect");
                }
            } catch (IOException e) {
                err.println("lazarus: the halt request could not be withdrawn: " + e.getMessage());
            }
        }
        if (!history.failures().isEmpty()) {
            err.println(JobSummary.of(history, last).text());
        }
        ledger.ended(JobSummary.result(last), state, history);
        return last.status();
    }
}
