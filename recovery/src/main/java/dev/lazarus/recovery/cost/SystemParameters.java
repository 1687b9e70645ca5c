package dev.lazarus.recovery.cost;

/**
 * The system side of the EasyCrash efficiency model (paper §7). All times in seconds.
 *
 * @param mtbfSeconds        MTBF of the system without EasyCrash
 * @param checkpointSeconds  T_chk, the time to write one coordinated checkpoint
 * @param restartSeconds     T_r, the time to recover from the last checkpoint; the paper takes T_chk
 * @param syncSeconds        T_sync, the time to synchronize the nodes on a restart; the paper takes T_chk / 2
 * @param nvmRestartSeconds  T'_r, the time to reload the data objects from NVM: their size over NVM bandwidth
 * @param runtimeOverhead    t_s, EasyCrash's runtime overhead from persistence, as a fraction (0.03 = 3%)
 * @param totalSeconds       Total_Time, the system time the model covers (the paper: 10 years)
 */
public record SystemParameters(double mtbfSeconds, double checkpointSeconds, double restartSeconds,
                               double syncSeconds, double nvmRestartSeconds, double runtimeOverhead,
                               double totalSeconds) {
    /** T_sync as a fraction of T_chk: "50% of the checkpoint overhead", after the paper's reference [13]. */
    public static final double DEFAULT_SYNC_FRACTION = 0.5;

    /**
     * Validates every time and the overhead.
     *
     * @throws IllegalArgumentException unless MTBF, T_chk and Total_Time are positive and finite, and T_r, T_sync,
     *                                  T'_r and t_s are finite and &gt;= 0
     */
    public SystemParameters {
        Require.positive("mtbfSeconds", mtbfSeconds);
        Require.positive("checkpointSeconds", checkpointSeconds);
        Require.nonNegative("restartSeconds", restartSeconds);
        Require.nonNegative("syncSeconds", syncSeconds);
        Require.nonNegative("nvmRestartSeconds", nvmRestartSeconds);
        Require.nonNegative("runtimeOverhead", runtimeOverhead);
        Require.positive("totalSeconds", totalSeconds);
    }

    /**
     * Parameters with the paper's defaults T_r = T_chk and T_sync = T_chk / 2.
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public static SystemParameters of(double mtbfSeconds, double checkpointSeconds, double nvmRestartSeconds,
                                      double runtimeOverhead, double totalSeconds) {
        return new SystemParameters(mtbfSeconds, checkpointSeconds, checkpointSeconds,
                DEFAULT_SYNC_FRACTION * checkpointSeconds, nvmRestartSeconds, runtimeOverhead, totalSeconds);
    }

    /**
     * T'_r as the paper estimates it: the size of the non-read-only data objects over NVM (read) bandwidth.
     *
     * @throws IllegalArgumentException for a negative size or a bandwidth that is not positive and finite
     */
    public static double nvmRestartSeconds(long dataBytes, double bytesPerSecond) {
        if (dataBytes < 0) {
            throw new IllegalArgumentException("dataBytes must be >= 0: dataBytes=" + dataBytes);
        }
        Require.positive("bytesPerSecond", bytesPerSecond);
        return dataBytes / bytesPerSecond;
    }

    /** These parameters with another T_r. */
    public SystemParameters withRestartSeconds(double seconds) {
        return new SystemParameters(mtbfSeconds, checkpointSeconds, seconds, syncSeconds, nvmRestartSeconds,
                runtimeOverhead, totalSeconds);
    }

    /** These parameters with another T_sync. */
    public SystemParameters withSyncSeconds(double seconds) {
        return new SystemParameters(mtbfSeconds, checkpointSeconds, restartSeconds, seconds, nvmRestartSeconds,
                runtimeOverhead, totalSeconds);
    }

    /** These parameters with another t_s. */
    public SystemParameters withRuntimeOverhead(double overhead) {
        return new SystemParameters(mtbfSeconds, checkpointSeconds, restartSeconds, syncSeconds, nvmRestartSeconds,
                overhead, totalSeconds);
    }
}
