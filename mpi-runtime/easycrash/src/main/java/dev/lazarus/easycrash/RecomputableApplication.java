package dev.lazarus.easycrash;

import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.MpiApplication;

import java.io.IOException;

/**
 * An application EasyCrash can restart: set up as a {@link Recomputable} without running it (what a crash-test
 * campaign needs to run it many times, traced and restarted, inside one process), and run by one shared driver,
 * {@link RecomputingRun#runApplication}, when a launch runs it. The application writes only what is its own: its
 * set-up, its header and its report.
 */
public interface RecomputableApplication extends MpiApplication {

    /**
     * Parses {@code args} and does the set-up that precedes the persistent heap (partitioning, input generation),
     * printing nothing: campaigns prepare an application thousands of times.
     *
     * @throws IllegalArgumentException for bad arguments or an unsupported rank count
     */
    Recomputable prepare(Comm comm, String[] args);

    /**
     * A run (not a campaign) is about to start, after {@link #prepare}: the application prints its header and turns
     * on its progress lines. Called on every rank; nothing by default.
     */
    default void announce() {
    }

    /**
     * The run has ended: the application prints its report (rank 0, as NPB does). Called on every rank.
     *
     * @param outcome     how the run ended
     * @param wallSeconds the time from the start of {@link #prepare} to the end of the run on this rank
     */
    default void report(RecomputingRun.Outcome outcome, double wallSeconds) {
    }

    /**
     * Runs the application under EasyCrash with this JVM's settings.
     *
     * @return 0 if the acceptance verification accepted the result, 1 otherwise (the same on every rank)
     */
    @Override
    default int run(Comm comm, String[] args) throws IOException {
        return RecomputingRun.runApplication(comm, this, args, EasyCrashSettings.fromSystem())
                .verdict().accepted() ? 0 : 1;
    }
}
