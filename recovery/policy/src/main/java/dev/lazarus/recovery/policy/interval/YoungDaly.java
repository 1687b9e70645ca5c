package dev.lazarus.recovery.policy.interval;

/**
 * Optimum checkpoint intervals for a system with exponentially distributed failures.
 *
 * <ul>
 *   <li>Young's first-order interval: T = sqrt(2 &middot; T_chk &middot; MTBF). The EasyCrash paper uses it for both T
 *       and T' (§7).</li>
 *   <li>Daly's higher-order interval (J. T. Daly, "A higher order estimate of the optimum checkpoint interval for
 *       restart dumps", 2006): for T_chk &lt; 2 MTBF,
 *       T = sqrt(2 T_chk M) &middot; [1 + (1/3) sqrt(T_chk / (2M)) + (1/9) (T_chk / (2M))] - T_chk, and T = M
 *       otherwise. It is the better estimate when T_chk is not small against the MTBF.</li>
 * </ul>
 * Both intervals are compute time between the ends of two checkpoints, not counting the checkpoint itself.
 */
public final class YoungDaly {

    private YoungDaly() {
    }

    /**
     * Young's interval, sqrt(2 &middot; T_chk &middot; MTBF).
     *
     * @throws IllegalArgumentException unless both times are positive and finite
     */
    public static double youngInterval(double mtbfSeconds, double checkpointSeconds) {
        requirePositive("mtbfSeconds", mtbfSeconds);
        requirePositive("checkpointSeconds", checkpointSeconds);
        return Math.sqrt(2.0 * checkpointSeconds * mtbfSeconds);
    }

    /**
     * Daly's higher-order interval; see the class comment for the formula.
     *
     * @throws IllegalArgumentException unless both times are positive and finite
     */
    public static double dalyInterval(double mtbfSeconds, double checkpointSeconds) {
        requirePositive("mtbfSeconds", mtbfSeconds);
        requirePositive("checkpointSeconds", checkpointSeconds);
        if (checkpointSeconds >= 2.0 * mtbfSeconds) {
            // Checkpoints cost as much as two failure-free periods: Daly caps the interval at the MTBF.
            return mtbfSeconds;
        }
        double ratio = checkpointSeconds / (2.0 * mtbfSeconds);
        return Math.sqrt(2.0 * checkpointSeconds * mtbfSeconds) * (1.0 + Math.sqrt(ratio) / 3.0 + ratio / 9.0)
                - checkpointSeconds;
    }

    /**
     * T_vain, the computation a rollback loses on average: half the interval, since failures land uniformly within
     * it (paper §7, after Daly).
     *
     * @throws IllegalArgumentException unless the interval is positive and finite
     */
    public static double expectedLostWork(double intervalSeconds) {
        requirePositive("intervalSeconds", intervalSeconds);
        return intervalSeconds / 2.0;
    }

    private static void requirePositive(String key, double value) {
        if (!(value > 0.0 && Double.isFinite(value))) {
            throw new IllegalArgumentException(key + " must be positive and finite: " + key + "=" + value);
        }
    }
}
