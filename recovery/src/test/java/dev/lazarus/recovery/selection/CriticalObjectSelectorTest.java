package dev.lazarus.recovery.selection;

import org.apache.commons.math3.stat.correlation.SpearmansCorrelation;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static dev.lazarus.recovery.selection.CrashTestOutcome.S1;
import static dev.lazarus.recovery.selection.CrashTestOutcome.S2;
import static dev.lazarus.recovery.selection.CrashTestOutcome.S3;
import static dev.lazarus.recovery.selection.CrashTestOutcome.S4;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CriticalObjectSelectorTest {

    private static CrashTestResult test(CrashTestOutcome outcome, Map<String, Double> rates) {
        return new CrashTestResult(0, rates, outcome);
    }

    private static ObjectCorrelation find(List<ObjectCorrelation> list, String name) {
        return list.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    /**
     * Worked by hand. Rates 0.1, 0.4, 0.2, 0.8, 0.5 rank 1, 3, 2, 5, 4. Success 1, 0, 1, 0, 0 (S1, S2, S1, S3, S4)
     * ranks, ties averaged: the three zeros share (1+2+3)/3 = 2, the two ones (4+5)/2 = 4.5. Both rank vectors have
     * mean 3; deviations (-2, 0, -1, 2, 1) and (1.5, -1, 1.5, -1, -1): covariance sum -7.5, squares 10 and 7.5, so
     * R_s = -7.5 / sqrt(75) = -sqrt(3)/2. Then t = R_s sqrt(3 / (1 - 3/4)) = -3 with 3 degrees of freedom, whose CDF is
     * 1/2 + (1/pi)(x/(1+x^2) + atan x) with x = t/sqrt(3); at |t| = 3 the two-sided p is 1/3 - sqrt(3)/(2 pi).
     */
    @Test
    void spearmanAndPValueMatchAHandComputedExample() {
        double[] rates = {0.1, 0.4, 0.2, 0.8, 0.5};
        CrashTestOutcome[] outcomes = {S1, S2, S1, S3, S4};
        List<CrashTestResult> results = new ArrayList<>();
        for (int i = 0; i < rates.length; i++) {
            results.add(test(outcomes[i], Map.of("u", rates[i])));
        }
        ObjectCorrelation u = new CriticalObjectSelector(0.1).select(results).getFirst();
        assertEquals(-Math.sqrt(3) / 2, u.spearman(), 1e-15);
        assertEquals(1.0 / 3 - Math.sqrt(3) / (2 * Math.PI), u.pValue(), 1e-12);
        assertEquals(ObjectCorrelation.Verdict.CRITICAL, u.verdict(), "p = 0.0577 < 0.1");
        assertEquals(ObjectCorrelation.Verdict.NOT_SIGNIFICANT,
                CriticalObjectSelector.withDefaultThreshold().select(results).getFirst().verdict(), "p > 0.01");
    }

    @Test
    void pValueMatchesTheTTableAndTheLimits() {
        // The 97.5% quantile of t with 10 degrees of freedom is 2.2281 (any t table): a two-sided p of 0.05.
        double t = 2.228138852;
        double rs = t / Math.sqrt(10 + t * t);
        assertEquals(0.05, CriticalObjectSelector.twoSidedPValue(rs, 12), 1e-8);
        assertEquals(0.05, CriticalObjectSelector.twoSidedPValue(-rs, 12), 1e-8);
        assertEquals(1.0, CriticalObjectSelector.twoSidedPValue(0.0, 50));
        assertEquals(0.0, CriticalObjectSelector.twoSidedPValue(-1.0, 4));
        assertEquals(0.0, CriticalObjectSelector.twoSidedPValue(1.0, 4));
        // Far tail: 1 - cdf would round to 0 here, 2 cdf(-|t|) does not.
        double tiny = CriticalObjectSelector.twoSidedPValue(-0.95, 200);
        assertTrue(tiny > 0.0 && tiny < 1e-50, "p=" + tiny);
    }

    @Test
    void agreesWithCommonsMathOnRandomCampaigns() {
        Random random = new Random(20260101L);
        SpearmansCorrelation reference = new SpearmansCorrelation();
        for (int trial = 0; trial < 20; trial++) {
            int n = 5 + random.nextInt(200);
            double[] rates = new double[n];
            double[] success = new double[n];
            List<CrashTestResult> results = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                // Round to 0.05 so rates tie too, as real rates of small objects do.
                rates[i] = Math.round(random.nextDouble() * 20) / 20.0;
                boolean ok = random.nextDouble() < 0.3 + 0.5 * (1 - rates[i]);
                success[i] = ok ? 1 : 0;
                results.add(test(ok ? S1 : S2, Map.of("x", rates[i])));
            }
            results.set(0, test(S1, Map.of("x", 0.0)));
            results.set(1, test(S4, Map.of("x", 1.0)));
            rates[0] = 0.0;
            success[0] = 1;
            rates[1] = 1.0;
            success[1] = 0;
            ObjectCorrelation x = CriticalObjectSelector.withDefaultThreshold().select(results).getFirst();
            double rs = reference.correlation(rates, success);
            assertEquals(rs, x.spearman(), 1e-12, "trial " + trial);
            assertEquals(CriticalObjectSelector.twoSidedPValue(rs, n), x.pValue(), 1e-15);
        }
    }

    /** One object's inconsistency decides success, one is noise, one never changes, one helps when inconsistent. */
    @Test
    void selectsOnlyTheObjectWhoseInconsistencyPredictsFailure() {
        Random random = new Random(42L);
        List<CrashTestResult> results = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            double u = random.nextDouble();
            double noise = random.nextDouble();
            // "r" is high exactly when the test succeeds: a positive correlation, which must not be selected.
            double r = u < 0.4 ? 0.5 + 0.5 * random.nextDouble() : 0.5 * random.nextDouble();
            CrashTestOutcome outcome = u < 0.4 ? S1 : (i % 2 == 0 ? S3 : S4);
            results.add(test(outcome, Map.of("u", u, "noise", noise, "it", 0.0, "r", r)));
        }
        List<ObjectCorrelation> correlations = CriticalObjectSelector.withDefaultThreshold().select(results);
        assertEquals(List.of("u", "noise", "r", "it"), correlations.stream().map(ObjectCorrelation::name).toList(),
                "sorted by R_s, undefined last");
        ObjectCorrelation u = find(correlations, "u");
        assertTrue(u.critical());
        assertTrue(u.spearman() < -0.8, "R_s=" + u.spearman());
        assertTrue(u.pValue() < 1e-30, "p=" + u.pValue());
        ObjectCorrelation noise = find(correlations, "noise");
        assertFalse(noise.critical(), noise.toString());
        assertTrue(noise.pValue() > 0.01, noise.toString());
        ObjectCorrelation r = find(correlations, "r");
        assertEquals(ObjectCorrelation.Verdict.NOT_NEGATIVE, r.verdict());
        assertTrue(r.pValue() < 1e-30, "significant, but the wrong direction");
        ObjectCorrelation it = find(correlations, "it");
        assertEquals(ObjectCorrelation.Verdict.CONSTANT_RATES, it.verdict());
        assertTrue(Double.isNaN(it.spearman()));
        assertEquals(1.0, it.pValue());
        assertEquals(List.of("u"), correlations.stream().filter(ObjectCorrelation::critical)
                .map(ObjectCorrelation::name).toList());
    }

    @Test
    void allRecomputedSelectsNothingAndSaysWhy() {
        List<CrashTestResult> results = List.of(
                test(S1, Map.of("a", 0.1, "b", 0.3)),
                test(S1, Map.of("a", 0.9, "b", 0.2)),
                test(S1, Map.of("a", 0.5, "b", 0.7)));
        for (ObjectCorrelation c : CriticalObjectSelector.withDefaultThreshold().select(results)) {
            assertEquals(ObjectCorrelation.Verdict.CONSTANT_OUTCOMES, c.verdict(), c.toString());
            assertTrue(Double.isNaN(c.spearman()));
            assertEquals(1.0, c.pValue());
            assertFalse(c.critical());
        }
    }

    /** No restart recomputed: whatever was ever stale is a suspect for the measured phases; the rest is not. */
    @Test
    void noneRecomputedSelectsTheObjectsThatWereEverStale() {
        List<CrashTestResult> results = List.of(
                test(S2, Map.of("a", 0.0, "b", 0.3, "c", 0.0)),
                test(S3, Map.of("a", 0.9, "b", 0.2, "c", 0.0)),
                test(S4, Map.of("a", 0.0, "b", 0.7, "c", 0.0)));
        Map<String, ObjectCorrelation.Verdict> verdicts = new java.util.TreeMap<>();
        for (ObjectCorrelation c : CriticalObjectSelector.withDefaultThreshold().select(results)) {
            verdicts.put(c.name(), c.verdict());
            assertTrue(Double.isNaN(c.spearman()), c.toString());
            assertEquals(1.0, c.pValue());
            assertEquals(!c.name().equals("c"), c.critical(), c.toString());
        }
        assertEquals(Map.of("a", ObjectCorrelation.Verdict.STALE_WHILE_NONE_RECOMPUTED,
                "b", ObjectCorrelation.Verdict.STALE_WHILE_NONE_RECOMPUTED,
                "c", ObjectCorrelation.Verdict.CONSTANT_OUTCOMES), verdicts);
    }

    @Test
    void perfectRankAgreementGivesPValueZero() {
        List<CrashTestResult> results = List.of(
                test(S1, Map.of("a", 0.1)), test(S1, Map.of("a", 0.1)),
                test(S2, Map.of("a", 0.8)), test(S3, Map.of("a", 0.8)));
        ObjectCorrelation a = CriticalObjectSelector.withDefaultThreshold().select(results).getFirst();
        // Two tied groups in both vectors, split the same way: the rank vectors are exactly opposite.
        assertEquals(-1.0, a.spearman(), 1e-15);
        assertEquals(0.0, a.pValue());
        assertTrue(a.critical());
    }

    @Test
    void rejectsBadInputWithExactMessages() {
        CriticalObjectSelector selector = CriticalObjectSelector.withDefaultThreshold();
        assertEquals("need at least 3 crash tests for a p-value (n-2 degrees of freedom): tests=2",
                assertThrows(IllegalArgumentException.class, () -> selector.select(List.of(
                        test(S1, Map.of("a", 0.1)), test(S2, Map.of("a", 0.2))))).getMessage());
        assertEquals("need at least 3 crash tests for a p-value (n-2 degrees of freedom): tests=0",
                assertThrows(IllegalArgumentException.class, () -> selector.select(null)).getMessage());
        assertEquals("crash test reports other candidate objects than test 0: test=2, objects=[a, c], "
                        + "expected=[a, b]",
                assertThrows(IllegalArgumentException.class, () -> selector.select(List.of(
                        test(S1, Map.of("a", 0.1, "b", 0.1)), test(S2, Map.of("b", 0.2, "a", 0.3)),
                        test(S2, Map.of("a", 0.2, "c", 0.3))))).getMessage());
        assertEquals("crash tests report no candidate objects: tests=3",
                assertThrows(IllegalArgumentException.class, () -> selector.select(List.of(
                        test(S1, Map.of()), test(S2, Map.of()), test(S2, Map.of())))).getMessage());
        assertEquals("p-value threshold must be in (0, 1]: pValueThreshold=0.0",
                assertThrows(IllegalArgumentException.class, () -> new CriticalObjectSelector(0.0)).getMessage());
        assertEquals("need at least 3 observations for a p-value (n-2 degrees of freedom): n=2",
                assertThrows(IllegalArgumentException.class,
                        () -> CriticalObjectSelector.twoSidedPValue(0.5, 2)).getMessage());
        assertEquals("Spearman coefficient must be in [-1, 1]: spearman=NaN",
                assertThrows(IllegalArgumentException.class,
                        () -> CriticalObjectSelector.twoSidedPValue(Double.NaN, 10)).getMessage());
    }
}
