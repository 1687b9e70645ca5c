package dev.lazarus.daemon.l2;

import java.util.concurrent.TimeUnit;

/**
 * What encoding one version did on this node.
 *
 * @param version       the version
 * @param set           this node's XOR set
 * @param protectedAtL2 false if the set has one member: no parity was written and the version has no L2 protection
 * @param payloadBytes  this node's payload size
 * @param parityBytes   the parity written (the layout's chunk size)
 * @param nanos         time taken, connections included
 */
public record EncodeResult(long version, XorSetMembership set, boolean protectedAtL2, long payloadBytes,
                           long parityBytes, long nanos) {

    /** @return payload bytes per second, in GB/s (10^9) */
    public double gigabytesPerSecond() {
        return nanos == 0 ? 0 : (double) payloadBytes / nanos;
    }

    /** @return one line for logs and the command line */
    public String describe() {
        if (!protectedAtL2) {
            return "l2: no redundancy: version=" + version + " " + set + " is a set of one node, so this version has"
                    + " no L2 protection (L1 and L3 only)";
        }
        return String.format("l2: encoded version=%d set=%d member=%d of %d payloadBytes=%d parityBytes=%d"
                        + " seconds=%.3f GBps=%.3f", version, set.setId(), set.member(), set.size(), payloadBytes,
                parityBytes, nanos / (double) TimeUnit.SECONDS.toNanos(1), gigabytesPerSecond());
    }
}
