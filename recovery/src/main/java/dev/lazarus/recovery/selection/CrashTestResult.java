package dev.lazarus.recovery.selection;

import java.util.HashMap;
import java.util.Map;

/**
 * One crash test of a campaign (paper §4.1, §5.1): where the crash hit, how inconsistent each candidate data object was
 * in NVM at that moment, and how the restarted application ended.
 *
 * @param crashedRegion     0-based index of the code region the crash hit, or {@link #OUTSIDE_MAIN_LOOP}
 * @param inconsistentRates per candidate object name: the fraction of its bytes that differed between NVM and the
 *                          crash-free state, in [0, 1]
 * @param outcome           how the restarted application ended
 */
public record CrashTestResult(int crashedRegion, Map<String, Double> inconsistentRates, CrashTestOutcome outcome) {
    /** {@link #crashedRegion} of a crash before or after the main computation loop, which is in no code region. */
    public static final int OUTSIDE_MAIN_LOOP = -1;

    /**
     * Validates the test and keeps an immutable copy of the rates.
     *
     * @throws IllegalArgumentException for a region index below -1, a missing outcome, or a rate that is missing, NaN
     *                                  or outside [0, 1]
     */
    public CrashTestResult {
        if (crashedRegion < OUTSIDE_MAIN_LOOP) {
            throw new IllegalArgumentException("crashedRegion must be a region index or -1 (outside the main loop): "
                    + "crashedRegion=" + crashedRegion);
        }
        if (outcome == null) {
            throw new IllegalArgumentException("outcome must not be null: crashedRegion=" + crashedRegion);
        }
        if (inconsistentRates == null) {
            throw new IllegalArgumentException("inconsistentRates must not be null: crashedRegion=" + crashedRegion);
        }
        // Map.copyOf would reject nulls with a bare NullPointerException; check first so the message names the object.
        for (Map.Entry<String, Double> e : new HashMap<>(inconsistentRates).entrySet()) {
            if (e.getKey() == null || e.getKey().isBlank()) {
                throw new IllegalArgumentException("object name must not be blank: object=" + e.getKey());
            }
            Double rate = e.getValue();
            if (rate == null || !(rate >= 0.0 && rate <= 1.0)) {
                throw new IllegalArgumentException("inconsistent rate must be in [0, 1]: object=" + e.getKey()
                        + ", rate=" + rate);
            }
        }
        inconsistentRates = Map.copyOf(inconsistentRates);
    }

    /**
     * The inconsistent rate of one candidate object.
     *
     * @throws IllegalArgumentException if this test did not record the object
     */
    public double inconsistentRate(String object) {
        Double rate = inconsistentRates.get(object);
        if (rate == null) {
            throw new IllegalArgumentException("crash test has no inconsistent rate for the object: object=" + object
                    + ", objects=" + inconsistentRates.keySet());
        }
        return rate;
    }
}
