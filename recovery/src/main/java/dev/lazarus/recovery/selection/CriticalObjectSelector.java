package dev.lazarus.recovery.selection;

import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.correlation.SpearmansCorrelation;
import org.apache.commons.math3.stat.ranking.NaNStrategy;
import org.apache.commons.math3.stat.ranking.NaturalRanking;
import org.apache.commons.math3.stat.ranking.TiesStrategy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * EasyCrash step 2, selection of critical data objects (paper §5.1).
 *
 * <p>For each candidate object it builds two vectors over the tests of a campaign run without persistence: the object's
 * inconsistent rate, and success (1 if the test ended {@link CrashTestOutcome#S1}, else 0). It computes Spearman's rank
 * correlation R_s between them and a two-sided p-value from t = R_s &middot; sqrt((n-2) / (1-R_s&sup2;)), which follows
 * Student's t-distribution with n-2 degrees of freedom when there is no correlation. An object is critical iff
 * R_s &lt; 0 and p &lt; threshold (0.01 in the paper).
 *
 * <p>When no test recomputed, R_s is undefined and the paper's rule selects nothing, although something stops every
 * restart. Then every object that was inconsistent in at least one test is selected as a suspect ({@link
 * ObjectCorrelation.Verdict#STALE_WHILE_NONE_RECOMPUTED}); the campaign's later phases persist the suspects and
 * measure whether that pays, and region selection keeps no region where it does not. An application whose small
 * accumulators are rewritten every iteration (IS's per-iteration verification slots) stays dirty in the cache, fails
 * every crash test without persistence, and needs exactly this.
 */
public final class CriticalObjectSelector {
    /** The paper's significance threshold: "a common threshold", a very strong correlation in their study. */
    public static final double DEFAULT_P_VALUE_THRESHOLD = 0.01;

    private static final int MIN_TESTS = 3;

    // The success vector is binary, so it is full of ties; average ranks are what makes this Spearman's R_s.
    private final SpearmansCorrelation spearman =
            new SpearmansCorrelation(new NaturalRanking(NaNStrategy.FAILED, TiesStrategy.AVERAGE));
    private final double pValueThreshold;

    /**
     * @param pValueThreshold an object is critical only if its p-value is below this, in (0, 1]
     * @throws IllegalArgumentException if the threshold is outside (0, 1]
     */
    public CriticalObjectSelector(double pValueThreshold) {
        if (!(pValueThreshold > 0.0 && pValueThreshold <= 1.0)) {
            throw new IllegalArgumentException("p-value threshold must be in (0, 1]: pValueThreshold="
                    + pValueThreshold);
        }
        this.pValueThreshold = pValueThreshold;
    }

    /** A selector with the paper's threshold, {@value #DEFAULT_P_VALUE_THRESHOLD}. */
    public static CriticalObjectSelector withDefaultThreshold() {
        return new CriticalObjectSelector(DEFAULT_P_VALUE_THRESHOLD);
    }

    /** The p-value threshold in use. */
    public double pValueThreshold() {
        return pValueThreshold;
    }

    /**
     * Correlates every candidate object with success.
     *
     * @param results the tests of one campaign; every test must report the same candidate objects
     * @return one entry per candidate, most negative R_s first (the strongest candidates), undefined R_s last, ties by
     *         name
     * @throws IllegalArgumentException for fewer than 3 tests, no candidates, or tests that disagree on the candidates
     */
    public List<ObjectCorrelation> select(List<CrashTestResult> results) {
        if (results == null || results.size() < MIN_TESTS) {
            throw new IllegalArgumentException("need at least " + MIN_TESTS
                    + " crash tests for a p-value (n-2 degrees of freedom): tests="
                    + (results == null ? 0 : results.size()));
        }
        Set<String> candidates = candidatesOf(results);
        int n = results.size();
        double[] success = new double[n];
        for (int i = 0; i < n; i++) {
            success[i] = results.get(i).outcome().recomputed() ? 1.0 : 0.0;
        }
        boolean constantOutcomes = isConstant(success);
        boolean noneRecomputed = constantOutcomes && success[0] == 0.0;
        List<ObjectCorrelation> correlations = new ArrayList<>(candidates.size());
        for (String name : candidates) {
            double[] rates = new double[n];
            for (int i = 0; i < n; i++) {
                rates[i] = results.get(i).inconsistentRate(name);
            }
            correlations.add(noneRecomputed ? suspect(name, rates)
                    : correlate(name, rates, success, constantOutcomes));
        }
        // Double.compare orders NaN after every number, which puts undefined correlations last.
        correlations.sort(Comparator.comparingDouble(ObjectCorrelation::spearman)
                .thenComparing(ObjectCorrelation::name));
        return List.copyOf(correlations);
    }

    /**
     * The two-sided p-value of a Spearman coefficient under the null hypothesis of no correlation, from
     * t = R_s &middot; sqrt((n-2) / (1-R_s&sup2;)) with n-2 degrees of freedom.
     *
     * @param spearman R_s in [-1, 1]; |R_s| = 1 gives p = 0 (t is infinite)
     * @param n        the number of paired observations, at least 3
     * @throws IllegalArgumentException for n &lt; 3 or R_s outside [-1, 1]
     */
    public static double twoSidedPValue(double spearman, int n) {
        if (n < MIN_TESTS) {
            throw new IllegalArgumentException("need at least " + MIN_TESTS
                    + " observations for a p-value (n-2 degrees of freedom): n=" + n);
        }
        if (!(spearman >= -1.0 && spearman <= 1.0)) {
            throw new IllegalArgumentException("Spearman coefficient must be in [-1, 1]: spearman=" + spearman);
        }
        double oneMinusSquare = 1.0 - spearman * spearman;
        if (oneMinusSquare <= 0.0) {
            return 0.0;
        }
        double t = spearman * Math.sqrt((n - 2) / oneMinusSquare);
        // 2 * cdf(-|t|) keeps precision in the far tail, where 1 - cdf(|t|) would round to 0.
        double p = 2.0 * new TDistribution(null, n - 2).cumulativeProbability(-Math.abs(t));
        return Math.min(1.0, p);
    }

    /** No test recomputed: an object inconsistent in any test is a suspect, one never inconsistent is not. */
    private static ObjectCorrelation suspect(String name, double[] rates) {
        boolean everStale = false;
        for (double rate : rates) {
            everStale |= rate > 0.0;
        }
        return new ObjectCorrelation(name, Double.NaN, 1.0, everStale
                ? ObjectCorrelation.Verdict.STALE_WHILE_NONE_RECOMPUTED : ObjectCorrelation.Verdict.CONSTANT_OUTCOMES);
    }

    private ObjectCorrelation correlate(String name, double[] rates, double[] success, boolean constantOutcomes) {
        if (constantOutcomes) {
            return new ObjectCorrelation(name, Double.NaN, 1.0, ObjectCorrelation.Verdict.CONSTANT_OUTCOMES);
        }
        if (isConstant(rates)) {
            return new ObjectCorrelation(name, Double.NaN, 1.0, ObjectCorrelation.Verdict.CONSTANT_RATES);
        }
        // Rounding can push |R_s| a hair past 1 when the ranks agree perfectly.
        double rs = Math.max(-1.0, Math.min(1.0, spearman.correlation(rates, success)));
        double p = twoSidedPValue(rs, rates.length);
        ObjectCorrelation.Verdict verdict;
        if (rs >= 0.0) {
            verdict = ObjectCorrelation.Verdict.NOT_NEGATIVE;
        } else if (p < pValueThreshold) {
            verdict = ObjectCorrelation.Verdict.CRITICAL;
        } else {
            verdict = ObjectCorrelation.Verdict.NOT_SIGNIFICANT;
        }
        return new ObjectCorrelation(name, rs, p, verdict);
    }

    private static Set<String> candidatesOf(List<CrashTestResult> results) {
        for (int i = 0; i < results.size(); i++) {
            if (results.get(i) == null) {
                throw new IllegalArgumentException("crash test must not be null: test=" + i);
            }
        }
        // Sorted, so the output order of equal coefficients does not depend on hash order.
        Set<String> expected = new TreeSet<>(results.getFirst().inconsistentRates().keySet());
        if (expected.isEmpty()) {
            throw new IllegalArgumentException("crash tests report no candidate objects: tests=" + results.size());
        }
        for (int i = 1; i < results.size(); i++) {
            Set<String> actual = results.get(i).inconsistentRates().keySet();
            if (!actual.equals(expected)) {
                throw new IllegalArgumentException("crash test reports other candidate objects than test 0: test="
                        + i + ", objects=" + new TreeSet<>(actual) + ", expected=" + expected);
            }
        }
        return expected;
    }

    private static boolean isConstant(double[] values) {
        for (double v : values) {
            if (v != values[0]) {
                return false;
            }
        }
        return true;
    }
}
