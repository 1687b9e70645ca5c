package dev.lazarus.recovery.cost;

/**
 * How the EasyCrash model counts the runtime overhead t_s against useful work. The paper is not explicit: §7 says the
 * interval T' "should include a small runtime overhead (t_s)", while Eq. 10 counts all of N' &middot; T' as useful.
 * Both readings use the wall-clock interval T' = (1 + t_s) &middot; sqrt(2 T_chk MTBF_EasyCrash); they differ only in
 * what of it is useful.
 */
public enum OverheadAccounting {
    /**
     * Eq. 10 as printed: the whole interval T', persistence time included, is useful computation. This reproduces the
     * paper's end-to-end numbers (about +2%, +6% and +20% for T_chk = 32, 320, 3200 s at R = 0.77, Appendix A.9), and
     * Eq. 11 and 12 are exact under it; but persistence is then almost free, so &tau; is close to 0.
     */
    AS_PRINTED,
    /**
     * Only T' / (1 + t_s) of each interval is useful: time spent persisting does no science. This is the reading under
     * which &tau; is a real threshold that rises with t_s, and the default for {@link Tau}.
     */
    CHARGED
}
