package dev.lazarus.verification.checks;

import dev.lazarus.verification.AcceptanceCheck;
import dev.lazarus.verification.Verdict;

import java.util.Locale;

/**
 * Accepts computed values whose relative error against reference values is within {@code epsilon}, the way the NAS
 * Parallel Benchmarks verify: {@code |computed - reference| / |reference| <= epsilon} for every value. NaN or
 * infinite values are always rejected. A reference of exactly zero is compared absolutely.
 */
public final class ReferenceValues implements AcceptanceCheck<double[]> {
    private final String[] names;
    private final double[] references;
    private final double epsilon;

    /**
     * @param names      one name per value, used in the reason
     * @param references the expected values
     * @param epsilon    the largest accepted relative error, positive
     */
    public ReferenceValues(String[] names, double[] references, double epsilon) {
        if (names.length != references.length) {
            throw new IllegalArgumentException(
                    "names=" + names.length + " references=" + references.length + " must have the same length");
        }
        if (!(epsilon > 0)) {
            throw new IllegalArgumentException("epsilon=" + epsilon + " must be positive");
        }
        this.names = names.clone();
        this.references = references.clone();
        this.epsilon = epsilon;
    }

    /** A check of one named value. */
    public static ReferenceValues of(String name, double reference, double epsilon) {
        return new ReferenceValues(new String[] {name}, new double[] {reference}, epsilon);
    }

    /** Relative error of {@code computed} against {@code reference}; absolute when the reference is zero. */
    public static double relativeError(double computed, double reference) {
        double diff = Math.abs(computed - reference);
        return reference == 0.0 ? diff : diff / Math.abs(reference);
    }

    @Override
    public Verdict verify(double[] computed) {
        if (computed.length != references.length) {
            return Verdict.reject("expected " + references.length + " values, got " + computed.length);
        }
        double worst = 0.0;
        for (int i = 0; i < computed.length; i++) {
            double err = relativeError(computed[i], references[i]);
            if (!Double.isFinite(computed[i]) || !(err <= epsilon)) {
                return Verdict.reject(String.format(Locale.ROOT, "%s=%.15e reference=%.15e rel.err=%.3e > %.1e",
                        names[i], computed[i], references[i], err, epsilon));
            }
            worst = Math.max(worst, err);
        }
        return Verdict.accept(String.format(Locale.ROOT, "%d value(s) within rel.err %.1e (worst %.3e)",
                computed.length, epsilon, worst));
    }
}
