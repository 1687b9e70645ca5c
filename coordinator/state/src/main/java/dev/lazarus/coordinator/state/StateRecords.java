package dev.lazarus.coordinator.state;

import java.util.List;
import java.util.Map;

/** The records of a job's recovery state, as JSON objects in the coordinator's maps and on disk. */
public final class StateRecords {

    private StateRecords() {
    }

    /**
     * The job.
     *
     * @param job              the job id
     * @param application      the application's name
     * @param arguments        its arguments
     * @param ranks            the rank count
     * @param nodes            the nodes the job runs on (this host alone without a host file)
     * @param spares           spare nodes (none yet)
     * @param launches         launches so far, over every allocation
     * @param firstStartMillis when the job was first launched, epoch milliseconds
     * @param state            running, succeeded, failed, gave up, halted (after a checkpoint), halted now
     */
    public record Job(String job, String application, List<String> arguments, int ranks, List<String> nodes,
                      List<String> spares, int launches, long firstStartMillis, String state) {
    }

    /**
     * A rank, as its last heartbeat left it.
     *
     * @param rank             the rank
     * @param node             its node
     * @param iteration        the iteration it had begun (its NVM bookmark)
     * @param persistent       whether its objects live in a persistent heap
     * @param lastBeatMillis   its last heartbeat, epoch milliseconds
     * @param iterationSeconds its median iteration time (null: not measured)
     */
    public record Rank(int rank, String node, int iteration, boolean persistent, long lastBeatMillis,
                       Double iterationSeconds) {
    }

    /**
     * A rank's last heartbeat as its node daemon last read it, in the cluster only (never on disk): what the daemons
     * compare to tell the rank that stopped first from those that wait for it.
     *
     * @param rank           the rank
     * @param node           its node
     * @param lastBeatMillis its last heartbeat or step outside its main loop (set-up, the loop's end), whichever came
     *                       later, epoch milliseconds
     * @param finished       whether it reached its verdict (it is verifying or exiting, not hung)
     */
    public record Beat(int rank, String node, long lastBeatMillis, boolean finished) {
    }

    /**
     * The launch running now, as the node daemons watch it: where its ranks' heartbeats are and when a silent rank
     * is hung.
     *
     * @param launch            the launch's number (1-based, counted over allocations)
     * @param statusDirectory   the launch's status directory (the ranks' heartbeats), an absolute path
     * @param hangTimeoutMillis the hang timeout the user gave, or 0 for the one derived from the iteration times
     * @param setUpTimeoutMillis the set-up timeout the user gave, or 0 for the default
     * @param startedMillis     when it started, epoch milliseconds
     * @param hang              what a node daemon found hung and killed in it, or null
     */
    public record Launch(int launch, String statusDirectory, long hangTimeoutMillis, long setUpTimeoutMillis,
                         long startedMillis, String hang) {

        /** @return this launch, with a hang a node daemon found */
        public Launch withHang(String what) {
            return new Launch(launch, statusDirectory, hangTimeoutMillis, setUpTimeoutMillis, startedMillis, what);
        }
    }

    /**
     * A checkpoint version on one level, complete for every rank.
     *
     * @param level          L1 or L3
     * @param version        the iteration it was taken after
     * @param bytes          its size
     * @param restoreSeconds its estimated restore time
     * @param verified       whether an acceptance check passed on the state it was written from
     */
    public record Version(String level, long version, long bytes, double restoreSeconds, boolean verified) {
    }

    /**
     * Something that happened: a launch, a failure, a decision, an outcome.
     *
     * @param timeMillis when, epoch milliseconds
     * @param launch     the launch it belongs to (1-based, counted over allocations)
     * @param kind       launch, recovery, failure, outcome
     * @param text       the log line
     */
    public record Event(long timeMillis, int launch, String kind, String text) {
    }

    /**
     * What the job measured.
     *
     * @param failures            failures seen
     * @param nvmAttempts         NVM restarts that reached a verdict
     * @param nvmAccepted         those the verification accepted
     * @param iterationSeconds    the slowest rank's median iteration time (null: not measured)
     * @param runningSeconds      time the job's launches ran, in all
     * @param mtbfSeconds         running time per failure (null before the first)
     * @param restoreBytesPerSecond the read bandwidth restores measured, bytes per second, by level name (L1, L2:
     *                              L1 after a rebuild from L2, L3); a level not restored from yet is absent
     */
    public record Stats(int failures, int nvmAttempts, int nvmAccepted, Double iterationSeconds,
                        double runningSeconds, Double mtbfSeconds, Map<String, Double> restoreBytesPerSecond) {
    }

    /** @return {@code value}, or null when it is not a measurement yet (NaN) */
    public static Double measured(double value) {
        return Double.isFinite(value) ? value : null;
    }
}
