package dev.lazarus.verification.checks;

import dev.lazarus.verification.AcceptanceCheck;
import dev.lazarus.verification.Verdict;

import java.util.Locale;

/** Accepts a residual (a norm of the error of a solution) that is finite and at most a threshold. */
public final class ResidualThreshold implements AcceptanceCheck<Double> {
    private final double threshold;

    public ResidualThreshold(double threshold) {
        if (!(threshold >= 0) || Double.isInfinite(threshold)) {
            throw new IllegalArgumentException("threshold=" + threshold + " must be finite and non-negative");
        }
        this.threshold = threshold;
    }

    @Override
    public Verdict verify(Double residual) {
        if (residual == null || !Double.isFinite(residual)) {
            return Verdict.reject("residual=" + residual + " is not a finite number");
        }
        String text = String.format(Locale.ROOT, "residual=%.6e threshold=%.6e", residual, threshold);
        return residual <= threshold ? Verdict.accept(text) : Verdict.reject(text + " exceeded");
    }
}
