package dev.lazarus.recovery.selection;

/**
 * The step-2 verdict on one candidate data object (paper §5.1): how its inconsistent rate correlates with successful
 * recomputation over a campaign.
 *
 * @param name     the candidate object
 * @param spearman Spearman's rank correlation R_s between the object's inconsistent rates and success (1 for S1, else
 *                 0); NaN when either vector is constant, because a rank correlation is then undefined
 * @param pValue   two-sided p-value of R_s from the t-distribution with n-2 degrees of freedom; 1 when R_s is NaN
 * @param verdict  whether the object is critical, and if not, why not
 */
public record ObjectCorrelation(String name, double spearman, double pValue, Verdict verdict) {

    /** Why an object is, or is not, critical. */
    public enum Verdict {
        /** R_s &lt; 0 and p below the threshold: the less inconsistent the object, the likelier recomputation. */
        CRITICAL,
        /** R_s &lt; 0, but p is not below the threshold: the evidence is too weak. */
        NOT_SIGNIFICANT,
        /** R_s &gt;= 0: inconsistency in this object does not hurt recomputation. */
        NOT_NEGATIVE,
        /** Every test saw the same inconsistent rate for the object, so it cannot explain any outcome. */
        CONSTANT_RATES,
        /**
         * Every test had the same success value, so no object can explain the outcomes: all recomputed, or none did
         * and this object was never inconsistent.
         */
        CONSTANT_OUTCOMES,
        /**
         * No test recomputed, so R_s is undefined, and the object was inconsistent in at least one test: it may be
         * what stops every restart, and the campaign's measured phases (persisting it) decide.
         */
        STALE_WHILE_NONE_RECOMPUTED
    }

    /** True if the object should be persisted: critical, or a suspect when no restart recomputed. */
    public boolean critical() {
        return verdict == Verdict.CRITICAL || verdict == Verdict.STALE_WHILE_NONE_RECOMPUTED;
    }
}
