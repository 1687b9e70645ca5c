package dev.lazarus.recovery.campaign;

import dev.lazarus.easycrash.DoubleArray;
import dev.lazarus.easycrash.EasyCrash;
import dev.lazarus.easycrash.ObjectRole;
import dev.lazarus.verification.Verdict;

import java.util.List;

/**
 * A small iterative application for campaign tests: {@code x <- (x + b) / 2} over a vector, which converges to
 * {@code b}; verification accepts {@code max|x - b| <= tolerance}. Two regions: the update and a (read-only) norm.
 * {@code x} is the candidate; {@code b} is re-initialized. A crash that leaves stale lines in {@code x} costs extra
 * iterations (S2) or, with too few left, fails (S4), so campaigns see a mix of outcomes.
 */
final class ConvergingApp extends CampaignTestApp {
    static final int LENGTH = 4096;
    private final int iterations;
    private final double tolerance;
    private DoubleArray x;
    private DoubleArray b;
    private double norm;

    ConvergingApp(int iterations, double tolerance) {
        super("test.Converging");
        this.iterations = iterations;
        this.tolerance = tolerance;
    }

    @Override
    public String signature() {
        return name() + " " + iterations;
    }

    @Override
    public List<String> regions() {
        return List.of("update", "norm");
    }

    @Override
    public long heapBytes() {
        return 2L * 8 * LENGTH;
    }

    @Override
    public void attach(EasyCrash easyCrash) {
        x = easyCrash.doubles("x", LENGTH);
        b = easyCrash.doubles("b", LENGTH, ObjectRole.REINITIALIZED);
    }

    @Override
    public void initialize(boolean fresh) {
        for (int i = 0; i < LENGTH; i++) {
            b.set(i, 1.0 + (i % 7));
        }
        if (fresh) {
            x.fill(0.0);
        }
    }

    @Override
    public int iterations() {
        return iterations;
    }

    @Override
    public void iterate(int iteration, EasyCrash easyCrash) {
        for (int i = 0; i < LENGTH; i++) {
            x.set(i, 0.5 * (x.get(i) + b.get(i)));
        }
        easyCrash.endRegion(0, iteration);
        double worst = 0;
        for (int i = 0; i < LENGTH; i++) {
            worst = Math.max(worst, Math.abs(x.get(i) - b.get(i)));
        }
        norm = worst;
        easyCrash.endRegion(1, iteration);
    }

    @Override
    public Verdict verify() {
        return norm <= tolerance ? Verdict.accept("norm=" + norm) : Verdict.reject("norm=" + norm);
    }
}
