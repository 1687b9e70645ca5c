package dev.lazarus.coordinator.job;

import dev.lazarus.coordinator.state.JobState;
import dev.lazarus.coordinator.state.StateFiles;
import dev.lazarus.coordinator.state.StateJournal;
import dev.lazarus.coordinator.state.StateRecords;
import dev.lazarus.coordinator.state.StateSink;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Records the job's state off the coordinator's path, in order, on one thread of its own: into the state directory
 * directly until the job's first failure, and from then on into the job's Hazelcast cluster, whose member starts in
 * the background at that failure (it writes the same files through). A failure-free run thus pays nothing for the
 * cluster, and a relaunch never waits for it. A record that cannot be written is reported once and the job goes on:
 * the state serves the next decision and the next allocation, never the run in progress.
 */
final class StateRecorder implements AutoCloseable {
    private final StateJournal journal;
    private final Supplier<JobState> cluster;
    private final PrintStream err;
    private final ExecutorService worker;
    private JobState state;
    private boolean clusterRequested;
    private boolean reported;

    /**
     * @param files   the job's state directory, or null to record nothing
     * @param cluster starts a member of the job's cluster (called on the recorder's thread)
     * @param err     where a record that could not be written is reported
     */
    StateRecorder(StateFiles files, Supplier<JobState> cluster, PrintStream err) {
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

    /** Starts the job's cluster member in the background (once); later records go through it. */
    void startCluster() {
        if (worker == null || clusterRequested) {
            return;
        }
        clusterRequested = true;
        worker.execute(() -> {
            try {
                state = cluster.get();
                err.println("lazarus: the job's state is in Hazelcast now (" + state.describe() + ")");
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

    private void report(String line) {
        if (!reported) {
            reported = true;
            err.println("lazarus: " + line);
        }
    }

    /** Writes what is queued, then leaves the cluster (gracefully) if a member was started. */
    @Override
    public void close() throws InterruptedException {
        if (worker == null) {
            return;
        }
        worker.execute(() -> {
            if (state != null) {
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
