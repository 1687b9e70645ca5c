package dev.lazarus.recovery.selection;

/**
 * One region a {@link RegionPlan} persists at.
 *
 * @param index          0-based region index
 * @param name           region name
 * @param interval       x: persist at every x-th persistence point of the region (1 = every one)
 * @param operations     persistence operations per run at this interval
 * @param recomputability predicted c_k^x (Eq. 5)
 * @param overhead       l_k(x): the persistence time as a fraction of the run time
 */
public record PlannedRegion(int index, String name, long interval, double operations, double recomputability,
                            double overhead) {
}
