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
     * @return whether a spare is left for every unreachable node of {@code loss} (said in one line when not): else the
     *         job cannot go on, and nothing is decided for it
     */
    default boolean replaceable(HostLoss loss) {
        return loss.unreachable().isEmpty();
    }

    /**
     * @param plan the last launch's plan
     * @return the next launch's plan, with spares in the place of unreachable nodes; empty when some unreachable node
     *         has no spare left
     */
    Optional<LaunchPlan> next(LaunchPlan plan, HostLoss loss) throws IOException;

    /** @return the job's nodes now, spares in lost ones' places (empty: as the job began) */
    default List<String> nodes() {
        return List.of();
    }
}
