package dev.lazarus.coordinator.job;

import dev.lazarus.mpi.launch.HangWatch;
import dev.lazarus.recovery.policy.failure.RecoveryMode;

/**
 * How the coordinator runs one job.
 *
 * @param maxRestarts             relaunches after failures before it gives up ({@code --max-restarts})
 * @param mode                    how it chooses a recovery path ({@code --recovery})
 * @param hangs                   when a silent rank is hung ({@code --hang-timeout})
 * @param sources                 where the job's checkpoints are
 * @param plannedRecomputability  the plan's predicted recomputability, or null
 * @param nvmAllowed              whether the ranks may resume from NVM at all
 */
public record JobOptions(int maxRestarts, RecoveryMode mode, HangWatch hangs, RestoreSources sources,
                         Double plannedRecomputability, boolean nvmAllowed) {
    /** The default of {@code --max-restarts}. */
    public static final int DEFAULT_MAX_RESTARTS = 10;
    /** The largest {@code --max-restarts} accepted. */
    public static final int MAX_RESTARTS = 1000;

    /** @throws IllegalArgumentException for a restart count outside 0 to {@value #MAX_RESTARTS} */
    public JobOptions {
        if (maxRestarts < 0 || maxRestarts > MAX_RESTARTS) {
            throw new IllegalArgumentException("--max-restarts=" + maxRestarts + " must be 0 to " + MAX_RESTARTS);
        }
    }
}
