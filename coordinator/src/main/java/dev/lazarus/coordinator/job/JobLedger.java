package dev.lazarus.coordinator.job;

import dev.lazarus.coordinator.launch.LaunchOutcome;
import dev.lazarus.coordinator.state.StateFiles;
import dev.lazarus.coordinator.state.StateRecords;
import dev.lazarus.coordinator.state.StateSnapshot;
import dev.lazarus.mpi.launch.HangWatch;
import dev.lazarus.mpi.launch.HeartbeatFile.HeartbeatSnapshot;
import dev.lazarus.recovery.policy.failure.VersionOption;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The job's record in the coordinator's state: what it carries over from earlier allocations (launches, failures,
 * running time, how NVM restarts fared) and what each launch, failure and decision adds (job, ranks, catalog,
 * events, statistics), written through a {@link StateRecorder}.
 */
final class JobLedger implements AutoCloseable {
    private final JobDescription job;
    private final StateRecorder recorder;
    private final Optional<StateRecords.Stats> prior;
    private final long firstStartMillis;
    private final String priorState;
    private int launches;
    /** The job's nodes now: the description's, until a spare takes a lost node's place. */
    private List<String> nodes;

    private JobLedger(JobDescription job, StateRecorder recorder, StateSnapshot before) {
        this.job = job;
        this.nodes = job.nodes();
        this.recorder = recorder;
        this.prior = before.stats();
        this.launches = before.job().map(StateRecords.Job::launches).orElse(0);
        this.priorState = before.job().map(StateRecords.Job::state).orElse("");
        this.firstStartMillis = before.job().map(StateRecords.Job::firstStartMillis)
                .orElse(System.currentTimeMillis());
    }

    /**
     * @param files   the job's state directory, or null to keep nothing
     * @param cluster the coordinator's member of the job's cluster, started at the first failure or from the start
     */
    static JobLedger open(JobDescription job, StateFiles files, StateCluster cluster, PrintStream err) {
        StateSnapshot before = new StateSnapshot(Optional.empty(), List.of(), List.of(), List.of(), Optional.empty(),
                List.of());
        if (files != null) {
            try {
                before = StateSnapshot.read(files);
                before.skipped().forEach(reason -> err.println("lazarus: state " + reason + " skipped"));
            } catch (IOException e) {
                err.println("lazarus: the job's earlier state could not be read (" + e.getMessage()
                        + "); starting without it");
            }
        }
        JobLedger ledger = new JobLedger(job, files == null ? StateRecorder.off() : new StateRecorder(files, cluster,
                err), before);
        if (cluster.fromStart()) {
            ledger.recorder.startCluster();
        }
        ledger.recordJob("running");
        return ledger;
    }

    /**
     * Seeds {@code history} with what earlier runs of the job measured (NVM restarts, iteration time, restore
     * bandwidths).
     */
    void seed(JobHistory history) {
        prior.ifPresent(stats -> history.seed(stats.nvmAttempts(), stats.nvmAccepted(), stats.iterationSeconds(),
                stats.restoreBytesPerSecond() == null ? Map.of() : stats.restoreBytesPerSecond()));
    }

    /** @return how the job's previous run ended ("halted", "succeeded", ...), or "" for a new job */
    String priorState() {
        return priorState;
    }

    /** @return the number the next launch gets, counted over every allocation */
    int nextLaunch() {
        return launches + 1;
    }

    /**
     * Says which launch runs now, for node daemons that watch its ranks (only while they are members of the job's
     * cluster).
     */
    void launching(Path statusDirectory, HangWatch hangs) {
        recorder.launch(new StateRecords.Launch(launches + 1, statusDirectory.toString(),
                hangs.explicit() == null ? 0 : hangs.explicit().toMillis(),
                hangs.setUp() == null ? 0 : hangs.setUp().toMillis(), System.currentTimeMillis(), null));
    }

    /** @return what a node daemon found hung and killed in the launch of {@code statusDirectory}, if anything */
    Optional<String> hangFoundByANodeDaemon(Path statusDirectory) {
        return recorder.launch().filter(l -> l.statusDirectory().equals(statusDirectory.toString()))
                .map(StateRecords.Launch::hang);
    }

    void launched(LaunchOutcome outcome, JobHistory history) {
        launches++;
        long now = System.currentTimeMillis();
        recorder.event(new StateRecords.Event(now, launches, "launch", String.format(Locale.ROOT,
                "launch %d: %s, status %d, %.1f s", launches, outcome.kind().name().toLowerCase(Locale.ROOT),
                outcome.status(), outcome.seconds())));
        List<Optional<HeartbeatSnapshot>> beats = outcome.heartbeats();
        for (int rank = 0; rank < beats.size(); rank++) {
            int r = rank;
            beats.get(rank).filter(b -> b.lastBeatMillis() > 0).ifPresent(b -> recorder.rank(new StateRecords.Rank(r,
                    b.node(), b.iteration(), b.persistent(), b.lastBeatMillis(),
                    StateRecords.measured(b.medianIterationSeconds()))));
        }
        recordJob("running");
        recordStats(history);
    }

    /** Records how a launch got back to work ({@link RecoveryTiming}). */
    void recovered(String line) {
        recorder.event(new StateRecords.Event(System.currentTimeMillis(), launches, "recovery", line));
    }

    /** The job runs on {@code now} from the next launch on (spares in lost nodes' places); empty: unchanged. */
    void nodesNow(List<String> now) {
        if (!now.isEmpty()) {
            nodes = List.copyOf(now);
            recordJob("running");
        }
    }

    /** Records something the ranks met on their levels ({@code kind}: corrupt). */
    void incident(String kind, String line) {
        recorder.event(new StateRecords.Event(System.currentTimeMillis(), launches, kind, line));
    }

    /** Records what became of the job's nodes (lost, replaced by a spare). */
    void nodes(String line) {
        recorder.event(new StateRecords.Event(System.currentTimeMillis(), launches, "node", line));
    }

    /**
     * Records a failure and its decision line; from the first failure on, the cluster holds the state.
     *
     * @param versions the versions the decision weighed, for the catalog (none when there was nothing to weigh)
     */
    void failed(String line, List<RestoreSources.Listed> versions) {
        recorder.startCluster();
        recorder.event(new StateRecords.Event(System.currentTimeMillis(), launches, "failure", line));
        for (RestoreSources.Listed listed : versions) {
            VersionOption version = listed.option();
            recorder.version(new StateRecords.Version(version.level().name(), version.iteration(), listed.bytes(),
                    version.restoreSeconds(), version.verified()));
        }
    }

    void ended(String outcome, String state, JobHistory history) {
        recorder.event(new StateRecords.Event(System.currentTimeMillis(), launches, "outcome", outcome));
        recordJob(state);
        recordStats(history);
    }

    private void recordJob(String state) {
        recorder.job(new StateRecords.Job(job.job(), job.application(), job.arguments(), job.ranks(), nodes,
                List.of(), launches, firstStartMillis, state));
    }

    /** @return the job's running time per failure over every allocation, seconds; NaN before its first failure */
    double mtbfSeconds(JobHistory history) {
        int failures = failures(history);
        return failures == 0 ? Double.NaN : running(history) / failures;
    }

    private int failures(JobHistory history) {
        return prior.map(StateRecords.Stats::failures).orElse(0) + history.failures().size();
    }

    private double running(JobHistory history) {
        return prior.map(StateRecords.Stats::runningSeconds).orElse(0.0)
                + history.launches().stream().mapToDouble(LaunchOutcome::seconds).sum();
    }

    private void recordStats(JobHistory history) {
        int failures = failures(history);
        double running = running(history);
        recorder.stats(new StateRecords.Stats(failures, history.nvmAttempts(), history.nvmAccepted(),
                StateRecords.measured(history.iterationSeconds()), running,
                failures == 0 ? null : running / failures,
                history.restoreBytesPerSecond().entrySet().stream().collect(Collectors.toMap(
                        e -> e.getKey().name(), Map.Entry::getValue))));
    }

    @Override
    public void close() throws InterruptedException {
        recorder.close();
    }
}
