package dev.lazarus.recovery.policy.failure;

import java.util.List;

/**
 * What the coordinator knows when a launch has failed: the failure, how far the run got and how fast it runs, and
 * what each recovery path could start from. All times in seconds.
 *
 * @param failure             the failure's class
 * @param where               where it happened, for the log ("rank 1 on node lzh2")
 * @param reachedIteration    the furthest iteration any rank had begun
 * @param iterations          the main loop's iterations in a normal run
 * @param maxIterations       how far a resumed run may go past them before its verification counts as rejected
 * @param iterationSeconds    the measured time of one iteration (the median)
 * @param verificationSeconds the measured time of one acceptance verification
 * @param startSeconds        the set-up a start from the beginning pays before its first iteration
 * @param nvm                 what an NVM restart would start from
 * @param versions            the checkpoint versions every rank can restore, with the level each is read from
 */
public record FailureFacts(FailureClass failure, String where, long reachedIteration, int iterations,
                           int maxIterations, double iterationSeconds, double verificationSeconds,
                           double startSeconds, NvmOption nvm, List<VersionOption> versions) {

    /** @throws IllegalArgumentException for counts or times that cannot be */
    public FailureFacts {
        if (iterations < 1 || maxIterations < iterations || reachedIteration < 0) {
            throw new IllegalArgumentException("iterations " + iterations + ", max " + maxIterations + ", reached "
                    + reachedIteration);
        }
        requireTime("iterationSeconds", iterationSeconds);
        requireTime("verificationSeconds", verificationSeconds);
        requireTime("startSeconds", startSeconds);
        requireTime("nvm.restartSeconds", nvm.restartSeconds());
        for (VersionOption version : versions) {
            requireTime("restoreSeconds of version " + version.iteration(), version.restoreSeconds());
            if (version.iteration() < 0 || version.iteration() > iterations) {
                throw new IllegalArgumentException("version " + version.iteration() + " outside 0.." + iterations);
            }
        }
        versions = List.copyOf(versions);
    }

    private static void requireTime(String name, double seconds) {
        if (!(seconds >= 0.0 && Double.isFinite(seconds))) {
            throw new IllegalArgumentException(name + " must be finite and >= 0: " + seconds);
        }
    }
}
