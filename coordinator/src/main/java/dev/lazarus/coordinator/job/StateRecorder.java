package dev.lazarus.coordinator.job;

import dev.lazarus.coordinator.state.JobState;
import dev.lazarus.coordinator.state.StateFiles;
import dev.lazarus.coordinator.state.StateJournal;
import dev.lazarus.coordinator.state.StateRecords;
import dev.lazarus.coordinator.state.StateSink;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Records the job's state off the coordinator's path, in order, on one thread of its own: into the state directory
 * directly until the job's first failure, and from then on into the job's Hazelcast cluster, whose member starts in
 * the background at that failure (it writes the same files through). A failure-free run thus pays nothing for the
 * cluster, and a relaunch never waits for it. A record that cannot be written is reported once and the job goes on:
 * the state serves the next decision and the next allocation, never the run in progress.
 */
final class StateRecorder implements AutoCloseable {
    /** How long a read from the job's cluster may take. */
    private static final long READ_SECONDS = 15;

    private final StateJournal journal;
    private final StateCluster cluster;
    private final PrintStream err;
    private final ExecutorService worker;
    private JobState state;
    private boolean clusterRequested;
    private boolean reported;

    /**
     * @param files   the job's state directory, or null to record nothing
     * @param cluster the coordinator's member of the job's cluster (started on the recorder's thread)
     * @param err     where a record that could not be written is reported
     */
    StateRecorder(StateFiles files, StateCluster cluster, PrintStream err) {
        this.journal = files == null ? null : new StateJournal(files);
        this.cluster = cluster;
        this.err = err;
        this.worker = files == null ? null : Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon()
                .name("lazarus-state").factory());
    }

    /** A recorder that records nothing ({@code --state-dir off}). */
    static StateRecorder off() {
        return new StateRecorder(null, null, null);
    }

    void job(StateRecords.Job job) {
        submit(sink -> sink.putJob(job));
    }

    void rank(StateRecords.Rank rank) {
        submit(sink -> sink.putRank(rank));
    }

    void version(StateRecords.Version version) {
        submit(sink -> sink.putVersion(version));
    }

    void event(StateRecords.Event event) {
        submit(sink -> sink.addEvent(event));
    }

    void stats(StateRecords.Stats stats) {
        submit(sink -> sink.putStats(stats));
    }

    /** Says which launch runs now, when the node daemons are members of the job's cluster (else nothing). */
    void launch(StateRecords.Launch launch) {
        if (worker == null || !cluster.fromStart()) {
            return;
        }
        worker.execute(() -> {
            try {
                if (state != null) {
                    state.putLaunch(launch);
                }
            } catch (RuntimeException e) {
                report("state not recorded: " + e);
            }
        });
    }

    /**
     * @return the launch running now as the job's cluster holds it (a node daemon may have added a hang), read after
     *         everything queued; empty without node daemons in the cluster, or when it cannot be read in time
     */
    Optional<StateRecords.Launch> launch() {
        if (worker == null || !cluster.fromStart()) {
            return Optional.empty();
        }
        Future<Optional<StateRecords.Launch>> read = worker.submit(() -> state == null ? Optional.empty()
                : state.launch());
        try {
            return read.get(READ_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            report("the launch's record could not be read from the job's cluster (" + e + ")");
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** Starts the job's cluster member in the background (once); later records go through it. */
    void startCluster() {
        if (worker == null || clusterRequested) {
            return;
        }
        clusterRequested = true;
        worker.execute(() -> {
            try {
                state = cluster.member().get();
                err.println("lazarus: the job's state is in Hazelcast " + (cluster.fromStart() ? "" : "now ") + "("
                        + state.describe() + ")");
            } catch (RuntimeException e) {
                report("the coordinator's Hazelcast member did not start (" + e.getMessage()
                        + "); the state goes to the state directory only");
            }
        });
    }

    private void submit(Record record) {
        if (worker == null) {
            return;
        }
        worker.execute(() -> {
            try {
                record.into(state != null ? state : journal);
            } catch (IOException | UncheckedIOException e) {
                report("state not recorded: " + e.getMessage());
            } catch (RuntimeException e) {
                report("state not recorded: " + e);
            }
        });
    }

    private void reportKept(JobState state) {
        try {
            List<String> missing = state.missing();
            if (!missing.isEmpty()) {
                err.println("lazarus: the job's cluster lost " + missing.size() + " of the " + state.writtenCount()
                        + " records written through the coordinator (" + String.join(", ", missing.subList(0,
                        Math.min(3, missing.size()))) + (missing.size() > 3 ? ", ..." : "")
                        + "); the state directory has them");
            } else if (cluster.fromStart()) {
                err.println("lazarus: the job's cluster holds all " + state.writtenCount() + " records written"
                        + " through the coordinator (" + state.members() + " member(s) at the end)");
            }
        } catch (RuntimeException e) {
            report("the job's cluster could not be read at the end (" + e.getMessage() + ")");
        }
    }

    private void report(String line) {
        if (!reported) {
            reported = true;
            err.println("lazarus: " + line);
        }
    }

    /**
     * Writes what is queued, then leaves the cluster (gracefully) if a member was started. Before it leaves, it checks
     * that the cluster still holds every record written through it, and says so when node daemons were members (any
     * one of them may have been lost with its node).
     */
    @Override
    public void close() throws InterruptedException {
        if (worker == null) {
            return;
        }
        worker.execute(() -> {
            if (state != null) {
                reportKept(state);
                state.close();
            }
        });
        worker.shutdown();
        if (!worker.awaitTermination(60, TimeUnit.SECONDS)) {
            err.println("lazarus: the job's state took longer than 60 s to record; some of it may be missing");
        }
    }

    /** One record, written into whichever sink holds the state now. */
    @FunctionalInterface
    private interface Record {
        void into(StateSink sink) throws IOException;
    }
}
