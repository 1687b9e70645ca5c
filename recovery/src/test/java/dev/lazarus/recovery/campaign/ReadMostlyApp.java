package dev.lazarus.recovery.campaign;

import dev.lazarus.easycrash.DoubleArray;
import dev.lazarus.easycrash.EasyCrash;
import dev.lazarus.easycrash.Recomputable;
import dev.lazarus.verification.Verdict;

import java.util.List;

/**
 * An application whose candidate {@code table} is written once, by a fresh start's initialization, and only read in
 * the main loop, like IS's keys: each iteration sums it, and verification accepts the last sum only if it is the
 * table's. Small enough to stay in any test cache, so its lines leave the cache only if something writes them back.
 */
final class ReadMostlyApp extends CampaignTestApp {
    static final int LENGTH = 256;
    private static final double EXPECTED = LENGTH * (LENGTH + 1) / 2.0;
    private DoubleArray table;
    private double sum;

    ReadMostlyApp() {
        super("test.ReadMostly");
    }

    @Override
    public String signature() {
        return name();
    }

    @Override
    public List<String> regions() {
        return List.of("sum");
    }

    @Override
    public long heapBytes() {
        return Recomputable.pageAligned(8L * LENGTH);
    }

    @Override
    public void attach(EasyCrash easyCrash) {
        table = easyCrash.doubles("table", LENGTH);
    }

    @Override
    public void initialize(boolean fresh) {
        if (fresh) {
            for (int i = 0; i < LENGTH; i++) {
                table.set(i, i + 1);
            }
        }
    }

    @Override
    public int iterations() {
        return 20;
    }

    @Override
    public void iterate(int iteration, EasyCrash easyCrash) {
        double total = 0;
        for (int i = 0; i < LENGTH; i++) {
            total += table.get(i);
        }
        sum = total;
        easyCrash.endRegion(0, iteration);
    }

    @Override
    public Verdict verify() {
        return sum == EXPECTED ? Verdict.accept("sum=" + sum) : Verdict.reject("sum=" + sum + ", not " + EXPECTED);
    }
}
