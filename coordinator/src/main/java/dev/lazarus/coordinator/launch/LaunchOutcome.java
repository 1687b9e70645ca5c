package dev.lazarus.coordinator.launch;

import dev.lazarus.mpi.launch.HeartbeatFile.HeartbeatSnapshot;

import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * How one launch of a job ended, as the coordinator needs it to decide what comes next.
 *
 * @param kind        what happened
 * @param status      the exit status the job would have if nothing followed (0 on success)
 * @param silentRanks the ranks that recorded no exit status (killed or crashed)
 * @param hang        the hang that got the job killed ("rank 1 silent for 64 s in iteration 12"), or null
 * @param heartbeats  each rank's last heartbeat (empty for a rank that never reached its main loop)
 * @param seconds     how long the launch took
 */
public record LaunchOutcome(Kind kind, int status, List<Integer> silentRanks, String hang,
                            List<Optional<HeartbeatSnapshot>> heartbeats, double seconds) {

    public LaunchOutcome {
        silentRanks = List.copyOf(silentRanks);
        heartbeats = List.copyOf(heartbeats);
    }

    /** A launch whose ranks never started: none of the {@code ranks} ranks has a status or a heartbeat. */
    public static LaunchOutcome notStarted(int status, int ranks) {
        return new LaunchOutcome(Kind.NOT_STARTED, status, IntStream.range(0, ranks).boxed().toList(), null,
                Collections.nCopies(ranks, Optional.empty()), 0.0);
    }

    /** What ended the launch. */
    public enum Kind {
        /** Every rank finished with status 0. */
        SUCCEEDED,
        /** Every rank finished, some with a non-zero status: a rejected result or bad input, not a failure. */
        FAILED,
        /** Some rank died without recording a status: killed or crashed. */
        CRASHED,
        /**
         * A rank stopped beating for longer than the hang timeout; the coordinator killed the job, or the rank's node
         * daemon killed the rank.
         */
        HUNG,
        /** A rank's NVM restart threw; it recorded the failed attempt and asked for a relaunch that rolls back. */
        NVM_ATTEMPT_FAILED,
        /** {@code --timeout} ran out; the job was killed. */
        TIMED_OUT,
        /** No rank started: the launcher failed (hosts, agent, network). */
        NOT_STARTED,
        /** The job was halted ({@code lazarus halt}): after a checkpoint, or killed at once with {@code --now}. */
        HALTED
    }

    /**
     * @return whether every rank's heartbeat says the acceptance verification accepted the result (a collective
     *         verdict, recorded before a rank releases its levels), so that the job's result stands even though the
     *         launch then failed
     */
    public boolean verifiedBeforeItEnded() {
        return !heartbeats.isEmpty() && heartbeats.stream().allMatch(b -> b.isPresent() && b.get().accepted());
    }

    /** @return this launch as a success: its result was verified before some rank died finishing */
    public LaunchOutcome asVerified() {
        return new LaunchOutcome(Kind.SUCCEEDED, 0, silentRanks, hang, heartbeats, seconds);
    }

    /** @return this launch as a hang: a node daemon found {@code what} hung and killed it, which ended the launch */
    public LaunchOutcome hungBecause(String what) {
        return new LaunchOutcome(Kind.HUNG, status, silentRanks, what, heartbeats, seconds);
    }
}
