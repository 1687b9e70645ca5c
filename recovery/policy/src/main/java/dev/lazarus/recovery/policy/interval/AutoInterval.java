package dev.lazarus.recovery.policy.interval;

import java.util.Locale;

/**
 * {@code --ckpt-every auto}: the checkpoint interval, in main-loop iterations, from Daly's optimum for the measured
 * checkpoint time and the MTBF, extended for EasyCrash (§7): a fraction R of the failures is recovered by NVM
 * restart, so rollbacks, the failures checkpoints are for, come every MTBF / (1 - R).
 *
 * @param iterations         the interval in iterations, at least 1
 * @param seconds            the compute time between checkpoints Daly's formula gives
 * @param checkpointSeconds  the checkpoint time it was computed for
 * @param iterationSeconds   the iteration time it was converted with
 * @param mtbfSeconds        the mean time between failures
 * @param mtbfSource         where the MTBF came from ("configured", "measured by the coordinator", "assumed")
 * @param recomputability    R, as used (capped at {@link #MAX_RECOMPUTABILITY})
 * @param rollbackMtbfSeconds MTBF / (1 - R)
 */
public record AutoInterval(int iterations, double seconds, double checkpointSeconds, double iterationSeconds,
                           double mtbfSeconds, String mtbfSource, double recomputability,
                           double rollbackMtbfSeconds) {
    /** The MTBF assumed when none is configured or measured: a day. */
    public static final double DEFAULT_MTBF_SECONDS = 24 * 3600.0;
    /**
     * The largest R the interval trusts. A lost node loses its NVM, whatever the application's recomputability, so
     * some failures always need a checkpoint; without this cap R = 1 would stop checkpointing altogether.
     */
    public static final double MAX_RECOMPUTABILITY = 0.95;

    /**
     * @param checkpointSeconds the measured time of one checkpoint (what the ranks wait for), positive
     * @param iterationSeconds  the measured time of one iteration, positive
     * @param mtbfSeconds       the MTBF, positive
     * @param recomputability   R from the plan or the job's NVM restarts; NaN when unknown (then 0: every failure
     *                          rolls back, the classic interval)
     * @throws IllegalArgumentException unless the times are positive and finite
     */
    public static AutoInterval choose(double checkpointSeconds, double iterationSeconds, double mtbfSeconds,
                                      String mtbfSource, double recomputability) {
        if (!(iterationSeconds > 0 && Double.isFinite(iterationSeconds))) {
            throw new IllegalArgumentException("iterationSeconds must be positive and finite: " + iterationSeconds);
        }
        double r = Double.isNaN(recomputability) ? 0.0 : Math.clamp(recomputability, 0.0, MAX_RECOMPUTABILITY);
        double rollbackMtbf = mtbfSeconds / (1.0 - r);
        double seconds = YoungDaly.dalyInterval(rollbackMtbf, checkpointSeconds);
        int iterations = (int) Math.clamp(Math.round(seconds / iterationSeconds), 1, Integer.MAX_VALUE);
        return new AutoInterval(iterations, seconds, checkpointSeconds, iterationSeconds, mtbfSeconds, mtbfSource, r,
                rollbackMtbf);
    }

    /** @return the interval and why, in one line: the numbers it came from */
    public String describe() {
        return String.format(Locale.ROOT, "every %d iterations (Daly: %s of compute between checkpoints for a"
                        + " checkpoint of %s; MTBF %s %s, R %.2f: rollbacks every %s; iteration %s)", iterations,
                time(seconds), time(checkpointSeconds), time(mtbfSeconds), mtbfSource, recomputability,
                time(rollbackMtbfSeconds), time(iterationSeconds));
    }

    private static String time(double seconds) {
        return seconds >= 3600 ? String.format(Locale.ROOT, "%.1f h", seconds / 3600)
                : seconds >= 1 ? String.format(Locale.ROOT, "%.1f s", seconds)
                : String.format(Locale.ROOT, "%.1f ms", seconds * 1e3);
    }
}
