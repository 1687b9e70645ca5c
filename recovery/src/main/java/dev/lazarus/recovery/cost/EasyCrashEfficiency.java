package dev.lazarus.recovery.cost;

import dev.lazarus.recovery.policy.interval.YoungDaly;

/**
 * The EasyCrash paper's system-efficiency model (§7, Eq. 6-9; Appendix A.8, Eq. 10-12) evaluated at one application
 * recomputability R.
 *
 * <p>Without EasyCrash, over a system time Total_Time with M = Total_Time / MTBF crashes (Eq. 7), every crash rolls
 * back to the last checkpoint (Eq. 6):
 * <pre>
 *   Total_Time = N (T + T_chk) + M (T_vain + T_r + T_sync),    T = sqrt(2 T_chk MTBF),  T_vain = T / 2
 * </pre>
 * With EasyCrash a fraction R of the crashes recompute from NVM (M'' = M R) and the rest roll back (M' = M (1 - R),
 * Eq. 9), so rollbacks see MTBF_EasyCrash = MTBF / (1 - R) and the interval grows (Eq. 8):
 * <pre>
 *   Total_Time = N' (T' + T_chk) + M' (T'_vain + T_r + T_sync) + M'' (T'_r + T_sync)
 *   T' = (1 + t_s) sqrt(2 T_chk MTBF_EasyCrash),  T'_vain = T' / 2
 * </pre>
 * The factor (1 + t_s) is how this class reads §7's "T' ... should include a small runtime overhead (t_s)": Young's
 * interval is the useful work between checkpoints, stretched in wall-clock time by persistence. Both totals are the
 * same system time, so N and N' are solved from them. Efficiency is useful work over Total_Time; see
 * {@link OverheadAccounting} for the two ways to count the t_s part of T'. Efficiencies do not depend on Total_Time:
 * every term scales with it.
 *
 * <p>The model is linear and does not clamp: a system whose rollbacks cost more than the MTBF gets N &lt; 0 and a
 * negative efficiency, which still compares correctly.
 */
public final class EasyCrashEfficiency {
    private final SystemParameters parameters;
    private final double recomputability;
    private final double crashes;
    private final double interval;
    private final double checkpoints;
    private final double easyCrashMtbf;
    private final double easyCrashInterval;
    private final double easyCrashCheckpoints;

    private EasyCrashEfficiency(SystemParameters p, double r) {
        this.parameters = p;
        this.recomputability = r;
        double total = p.totalSeconds();
        this.crashes = total / p.mtbfSeconds();
        this.interval = YoungDaly.youngInterval(p.mtbfSeconds(), p.checkpointSeconds());
        double rollbackCost = YoungDaly.expectedLostWork(interval) + p.restartSeconds() + p.syncSeconds();
        this.checkpoints = (total - crashes * rollbackCost) / (interval + p.checkpointSeconds());
        this.easyCrashMtbf = p.mtbfSeconds() / (1.0 - r);
        this.easyCrashInterval = (1.0 + p.runtimeOverhead())
                * YoungDaly.youngInterval(easyCrashMtbf, p.checkpointSeconds());
        double easyCrashRollbackCost = YoungDaly.expectedLostWork(easyCrashInterval) + p.restartSeconds()
                + p.syncSeconds();
        double recomputationCost = p.nvmRestartSeconds() + p.syncSeconds();
        this.easyCrashCheckpoints = (total - rollbacks() * easyCrashRollbackCost - recomputations() * recomputationCost)
                / (easyCrashInterval + p.checkpointSeconds());
    }

    /**
     * Evaluates the model.
     *
     * @param parameters      the system
     * @param recomputability R_EasyCrash, the fraction of crashes that recompute from NVM, in [0, 1)
     * @throws IllegalArgumentException for missing parameters or R outside [0, 1)
     */
    public static EasyCrashEfficiency of(SystemParameters parameters, double recomputability) {
        if (parameters == null) {
            throw new IllegalArgumentException("parameters must not be null: recomputability=" + recomputability);
        }
        // R = 1 would mean no rollbacks at all: MTBF_EasyCrash and T' are infinite and the model has no meaning.
        if (!(recomputability >= 0.0 && recomputability < 1.0)) {
            throw new IllegalArgumentException("recomputability must be in [0, 1): recomputability="
                    + recomputability);
        }
        return new EasyCrashEfficiency(parameters, recomputability);
    }

    /** The system the model was evaluated for. */
    public SystemParameters parameters() {
        return parameters;
    }

    /** R_EasyCrash. */
    public double recomputability() {
        return recomputability;
    }

    /** M = Total_Time / MTBF (Eq. 7), crashes over the system time; EasyCrash does not change how many. */
    public double crashes() {
        return crashes;
    }

    /** T, Young's interval without EasyCrash. */
    public double interval() {
        return interval;
    }

    /** T_vain = T / 2. */
    public double lostWork() {
        return YoungDaly.expectedLostWork(interval);
    }

    /** N, checkpoints without EasyCrash, from Eq. 6. */
    public double checkpoints() {
        return checkpoints;
    }

    /** MTBF_EasyCrash = MTBF / (1 - R): the mean time between crashes that must roll back. */
    public double easyCrashMtbf() {
        return easyCrashMtbf;
    }

    /** T' = (1 + t_s) sqrt(2 T_chk MTBF_EasyCrash), the wall-clock interval with EasyCrash. */
    public double easyCrashInterval() {
        return easyCrashInterval;
    }

    /** T'_vain = T' / 2. */
    public double easyCrashLostWork() {
        return YoungDaly.expectedLostWork(easyCrashInterval);
    }

    /** N', checkpoints with EasyCrash, from Eq. 8. */
    public double easyCrashCheckpoints() {
        return easyCrashCheckpoints;
    }

    /** M' = M (1 - R): crashes that still roll back to the last checkpoint (Eq. 9). */
    public double rollbacks() {
        return crashes * (1.0 - recomputability);
    }

    /** M'' = M R: crashes that recompute from NVM (Eq. 9). */
    public double recomputations() {
        return crashes * recomputability;
    }

    /** N T / Total_Time: the efficiency of checkpoint/restart alone. */
    public double efficiencyWithout() {
        return checkpoints * interval / parameters.totalSeconds();
    }

    /** The efficiency with EasyCrash: N' T' / Total_Time, with T' counted as {@code accounting} says. */
    public double efficiencyWith(OverheadAccounting accounting) {
        double useful = easyCrashCheckpoints * easyCrashInterval / parameters.totalSeconds();
        return switch (accounting) {
            case AS_PRINTED -> useful;
            case CHARGED -> useful / (1.0 + parameters.runtimeOverhead());
        };
    }

    /** &Delta;_eff (Eq. 10): efficiency with EasyCrash minus without; positive when EasyCrash pays. */
    public double improvement(OverheadAccounting accounting) {
        return efficiencyWith(accounting) - efficiencyWithout();
    }

    /**
     * Eq. 11, &Delta;_eff in closed form:
     * ((N - N') T_chk + M R (T_r - T'_r) + M (T_vain - (1 - R) T'_vain)) / Total_Time. It equals
     * {@code improvement(AS_PRINTED)}; it is here to check the algebra and for reports.
     */
    public double eq11Improvement() {
        SystemParameters p = parameters;
        double r = recomputability;
        return ((checkpoints - easyCrashCheckpoints) * p.checkpointSeconds()
                + crashes * r * (p.restartSeconds() - p.nvmRestartSeconds())
                + crashes * (lostWork() - (1.0 - r) * easyCrashLostWork())) / p.totalSeconds();
    }

    /**
     * Eq. 12's right-hand side at this R: ((N' - N) T_chk + M (T'_vain - T_vain)) / (M (T_r - T'_r + T'_vain)).
     * N' and T'_vain depend on R, so this is not a threshold by itself: R exceeds it exactly when Eq. 11 is positive.
     * NaN when the denominator is not positive (T'_r &gt;= T_r + T'_vain), where the inequality would flip.
     */
    public double eq12Bound() {
        SystemParameters p = parameters;
        double denominator = crashes * (p.restartSeconds() - p.nvmRestartSeconds() + easyCrashLostWork());
        if (!(denominator > 0.0)) {
            return Double.NaN;
        }
        return ((easyCrashCheckpoints - checkpoints) * p.checkpointSeconds()
                + crashes * (easyCrashLostWork() - lostWork())) / denominator;
    }
}
