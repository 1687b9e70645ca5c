package dev.lazarus.recovery.policy.failure;

import java.util.Locale;

/**
 * The chance that an NVM restart passes its acceptance verification: the campaign's prediction for the plan, updated
 * with this job's own NVM restarts. The campaign's figure counts as {@value #PLAN_WEIGHT} restarts already seen, and
 * without a campaign the prior is an even chance worth {@value #PRIOR_WEIGHT} (Laplace's rule of succession), so a
 * few outcomes of this job move the estimate and many outcomes decide it.
 *
 * @param value  the estimate, in [0, 1]
 * @param source how it was made, for the decision's log line
 */
public record Recomputability(double value, String source) {
    /** How many restarts a campaign's prediction is worth. */
    public static final int PLAN_WEIGHT = 8;
    /** How many restarts the even prior is worth. */
    public static final int PRIOR_WEIGHT = 2;

    /** @throws IllegalArgumentException unless the value is in [0, 1] */
    public Recomputability {
        if (!(value >= 0.0 && value <= 1.0)) {
            throw new IllegalArgumentException("recomputability must be in [0, 1]: " + value);
        }
    }

    /** An even chance: nothing is known. */
    public static Recomputability unknown() {
        return new Recomputability(0.5, "unknown");
    }

    /**
     * @param planned  the campaign's predicted recomputability of the plan in use, or null without one
     * @param attempts NVM restarts of this job so far
     * @param accepted how many of them passed verification
     * @throws IllegalArgumentException for a prediction outside [0, 1] or counts that do not add up
     */
    public static Recomputability estimate(Double planned, int attempts, int accepted) {
        if (attempts < 0 || accepted < 0 || accepted > attempts) {
            throw new IllegalArgumentException("accepted " + accepted + " of " + attempts + " NVM restarts");
        }
        if (planned != null && !(planned >= 0.0 && planned <= 1.0)) {
            throw new IllegalArgumentException("the plan's recomputability must be in [0, 1]: " + planned);
        }
        double priorWeight = planned != null ? PLAN_WEIGHT : PRIOR_WEIGHT;
        double prior = planned != null ? planned : 0.5;
        double value = (prior * priorWeight + accepted) / (priorWeight + attempts);
        String from = planned != null ? String.format(Locale.ROOT, "plan %.2f", planned) : "no plan";
        return new Recomputability(value, attempts == 0 ? from
                : from + ", " + accepted + "/" + attempts + " restarts of this job accepted");
    }
}
