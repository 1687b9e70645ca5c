package dev.lazarus.coordinator.launch;

import dev.lazarus.store.level.l2.L2Scheme;

/**
 * How a multi-host job's nodes form L2 sets, as far as the coordinator needs it to tell which losses a rebuild
 * brings back: consecutive nodes of the host file, {@code setSize} at a time (the last set may be smaller).
 *
 * @param setSize the nodes per set, 0 when the job writes no L2
 * @param scheme  XOR parity or PARTNER copies
 */
public record L2Sets(int setSize, L2Scheme scheme) {
    /** A job without L2. */
    public static final L2Sets NONE = new L2Sets(0, L2Scheme.XOR);

    public L2Sets {
        if (setSize < 0) {
            throw new IllegalArgumentException("set size " + setSize);
        }
    }
}
