package dev.lazarus.coordinator.job;

import dev.lazarus.coordinator.state.JobState;

import java.util.function.Supplier;

/**
 * When the coordinator's member of the job's Hazelcast cluster serves the job's state: from the job's first failure
 * (a failure-free run on one node pays nothing for the cluster), or from the start when node daemons are members of
 * the cluster too and joined it through the coordinator's member.
 *
 * @param member    starts the coordinator's member, or returns the one already started
 * @param fromStart whether records go through it from the start
 */
public record StateCluster(Supplier<JobState> member, boolean fromStart) {

    /** The member starts in the background at the job's first failure. */
    public static StateCluster atFirstFailure(Supplier<JobState> member) {
        return new StateCluster(member, false);
    }

    /** The member already runs (the node daemons joined through it): records go through it from the start. */
    public static StateCluster running(JobState member) {
        return new StateCluster(() -> member, true);
    }
}
