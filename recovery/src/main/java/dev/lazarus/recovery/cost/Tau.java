package dev.lazarus.recovery.cost;

/**
 * &tau;, the least application recomputability with which EasyCrash improves system efficiency (paper §5.2 Eq. 4, §7,
 * Appendix A.8).
 *
 * <p><b>The circularity.</b> Eq. 12 reads R &gt; f(R) = ((N' - N) T_chk + M (T'_vain - T_vain)) /
 * (M (T_r - T'_r + T'_vain)), but N' and T'_vain depend on R through MTBF_EasyCrash = MTBF / (1 - R), so f is not a
 * constant bound. This class does not iterate Eq. 12. It solves &Delta;_eff(R) &gt; 0 (Eq. 10) directly: it scans
 * R = 0, 0.001, ..., 0.999, 1 - 1e-9 for the first R with &Delta;_eff &gt; 0, then bisects between it and the
 * scanned point before it down to 1e-12. The scan makes the result the <em>smallest</em> such R even if &Delta;_eff
 * were not monotone; the bisection keeps &Delta;_eff(lo) &lt;= 0 &lt; &Delta;_eff(hi) and returns hi, so the reported
 * &tau; itself satisfies the goal. Eq. 12 evaluated at &tau; is reported beside it: under
 * {@link OverheadAccounting#AS_PRINTED} it equals &tau; (the fixed point R = f(R)) whenever &tau; &gt; 0; under
 * {@link OverheadAccounting#CHARGED} it is lower, because Eq. 12 does not see t_s.
 *
 * @param value       &tau; in [0, 1]; 1 when no R in [0, 1) improves efficiency
 * @param reachable   false when no R in [0, 1) improves efficiency
 * @param eq12AtValue Eq. 12's right-hand side at R = &tau; (NaN if unreachable or undefined there)
 * @param accounting  how t_s was counted
 */
public record Tau(double value, boolean reachable, double eq12AtValue, OverheadAccounting accounting) {
    /** The scan's step count over [0, 1). */
    static final int SCAN_STEPS = 1000;
    /** The largest R the model is evaluated at; R = 1 would make MTBF_EasyCrash infinite. */
    static final double MAX_RECOMPUTABILITY = 1.0 - 1e-9;
    /** Bisection stops when the bracket is this narrow. */
    static final double TOLERANCE = 1e-12;

    private static final int MAX_BISECTIONS = 200;

    /**
     * &tau; for the paper's defaults T_r = T_chk and T_sync = T_chk / 2, with t_s charged against useful work.
     *
     * @param mtbfSeconds       system MTBF without EasyCrash
     * @param checkpointSeconds T_chk
     * @param nvmRestartSeconds T'_r, reload time from NVM
     * @param runtimeOverhead   t_s as a fraction
     * @param totalSeconds      Total_Time (the result does not depend on it, but the model is defined with it)
     * @return &tau; in [0, 1]; 1.0 when unreachable
     * @throws IllegalArgumentException as {@link SystemParameters}
     */
    public static double of(double mtbfSeconds, double checkpointSeconds, double nvmRestartSeconds,
                            double runtimeOverhead, double totalSeconds) {
        return solve(SystemParameters.of(mtbfSeconds, checkpointSeconds, nvmRestartSeconds, runtimeOverhead,
                totalSeconds)).value();
    }

    /** &tau; for these parameters, with t_s charged against useful work ({@link OverheadAccounting#CHARGED}). */
    public static Tau solve(SystemParameters parameters) {
        return solve(parameters, OverheadAccounting.CHARGED);
    }

    /**
     * &tau; for these parameters and accounting.
     *
     * @throws IllegalArgumentException for missing parameters or accounting
     */
    public static Tau solve(SystemParameters parameters, OverheadAccounting accounting) {
        if (parameters == null || accounting == null) {
            throw new IllegalArgumentException("parameters and accounting must not be null: parameters="
                    + parameters + ", accounting=" + accounting);
        }
        if (improves(parameters, accounting, 0.0)) {
            return at(parameters, accounting, 0.0);
        }
        double below = 0.0;
        for (int i = 1; i <= SCAN_STEPS; i++) {
            double r = i == SCAN_STEPS ? MAX_RECOMPUTABILITY : (double) i / SCAN_STEPS;
            if (improves(parameters, accounting, r)) {
                return at(parameters, accounting, bisect(parameters, accounting, below, r));
            }
            below = r;
        }
        return new Tau(1.0, false, Double.NaN, accounting);
    }

    /** The smallest R in (lo, hi] with an improvement, given none at lo and one at hi. */
    private static double bisect(SystemParameters parameters, OverheadAccounting accounting, double lo, double hi) {
        for (int i = 0; i < MAX_BISECTIONS && hi - lo > TOLERANCE; i++) {
            double mid = 0.5 * (lo + hi);
            if (improves(parameters, accounting, mid)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    private static boolean improves(SystemParameters parameters, OverheadAccounting accounting, double r) {
        return EasyCrashEfficiency.of(parameters, r).improvement(accounting) > 0.0;
    }

    private static Tau at(SystemParameters parameters, OverheadAccounting accounting, double r) {
        return new Tau(r, true, EasyCrashEfficiency.of(parameters, r).eq12Bound(), accounting);
    }
}
