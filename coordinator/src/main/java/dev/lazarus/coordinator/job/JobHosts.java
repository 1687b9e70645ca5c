package dev.lazarus.coordinator.job;

import dev.lazarus.coordinator.launch.HostLoss;
import dev.lazarus.coordinator.launch.HostPool;
import dev.lazarus.coordinator.launch.LaunchPlan;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/** The job's nodes between launches, as the coordinator sees them: which were lost, and what takes their place. */
public interface JobHosts {
    /** A job on this host alone: there is nothing to survey, and every launch runs the same plan. */
    JobHosts THIS_HOST = new JobHosts() {
        @Override
        public HostLoss survey() {
            return HostLoss.NONE;
        }

        @Override
        public Optional<LaunchPlan> next(LaunchPlan plan, HostLoss loss) {
            return Optional.of(plan);
        }
    };

    /** @return the nodes the failed launch lost ({@link HostPool#survey}) */
    HostLoss survey();

    /**
     * @return whether the job can go on after {@code loss}, with a spare for every unreachable node or on the nodes
     *         left (said in one line when not): else nothing is decided for it
     */
    default boolean replaceable(HostLoss loss) {
        return loss.unreachable().isEmpty();
    }

    /**
     * @return whether the next launch runs the unreachable nodes' ranks on the nodes left, for want of spares: no L2
     *         set rebuilds their files then, so the decision weighs L3 and the beginning
     */
    default boolean movesRanks(HostLoss loss) {
        return false;
    }

    /**
     * @param plan the last launch's plan
     * @return the next launch's plan, with spares in the place of unreachable nodes, or without them when no spare is
     *         left for each ({@link #movesRanks}); empty when no node is left
     */
    Optional<LaunchPlan> next(LaunchPlan plan, HostLoss loss) throws IOException;

    /** @return the job's nodes now, spares in lost ones' places (empty: as the job began) */
    default List<String> nodes() {
        return List.of();
    }
}
