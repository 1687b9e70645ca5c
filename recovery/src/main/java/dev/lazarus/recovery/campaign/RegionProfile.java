package dev.lazarus.recovery.campaign;

import dev.lazarus.easycrash.trace.AccessTracer;

/**
 * Counts a run's traced accesses: where the main loop starts and ends, and how many accesses each code region makes.
 * A region's share of accesses stands in for its share of execution time ({@code a_k}, paper Eq. 1): it is
 * deterministic, unlike wall time in a traced run, and memory accesses dominate these kernels.
 */
final class RegionProfile implements AccessTracer {
    private final long[] regionAccesses;
    private long accesses;
    private long mainLoopStart = -1;
    private long mainLoopEnd;
    private long regionStart;
    private int region;
    private int iterations;

    RegionProfile(int regions) {
        this.regionAccesses = new long[regions];
    }

    @Override
    public void load(long address, int bytes) {
        accesses++;
    }

    @Override
    public void store(long address, int bytes) {
        accesses++;
    }

    @Override
    public void persist(long address, long length) {
    }

    @Override
    public void regionEnd(int index, int iteration) {
        regionAccesses[index] += accesses - regionStart;
        regionStart = accesses;
        region = index + 1;
        mainLoopEnd = accesses;
    }

    @Override
    public void iterationBegin(int iteration) {
        if (mainLoopStart < 0) {
            mainLoopStart = accesses;
        }
        regionStart = accesses;
        region = 0;
        iterations++;
    }

    long accesses() {
        return accesses;
    }

    /** Access count when the first main-loop iteration began. */
    long mainLoopStart() {
        return Math.max(0, mainLoopStart);
    }

    /** Access count when the last region of the last iteration ended. */
    long mainLoopEnd() {
        return mainLoopEnd;
    }

    int iterations() {
        return iterations;
    }

    /** Each region's share of the main loop's accesses, summing to 1. */
    double[] shares() {
        double total = 0;
        for (long a : regionAccesses) {
            total += a;
        }
        double[] shares = new double[regionAccesses.length];
        for (int i = 0; i < shares.length; i++) {
            shares[i] = total == 0 ? 1.0 / shares.length : regionAccesses[i] / total;
        }
        return shares;
    }
}
