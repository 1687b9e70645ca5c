package dev.lazarus.daemon.l2;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What rebuilding one version on this node restored.
 *
 * @param version      the version
 * @param set          this node's XOR set
 * @param ranks        the ranks whose files were restored
 * @param payloadBytes bytes of the restored rank files
 * @param parityBytes  the parity recomputed for this node
 * @param nanos        time taken, connections included
 */
public record RebuildResult(long version, XorSetMembership set, List<Integer> ranks, long payloadBytes,
                            long parityBytes, long nanos) {

    public RebuildResult {
        ranks = List.copyOf(ranks);
    }

    /** @return restored payload bytes per second, in GB/s (10^9) */
    public double gigabytesPerSecond() {
        return nanos == 0 ? 0 : (double) payloadBytes / nanos;
    }

    /** @return one line for logs and the command line */
    public String describe() {
        return String.format("l2: rebuilt version=%d set=%d member=%d of %d ranks=%s payloadBytes=%d parityBytes=%d"
                        + " seconds=%.3f GBps=%.3f", version, set.setId(), set.member(), set.size(), ranks,
                payloadBytes, parityBytes, nanos / (double) TimeUnit.SECONDS.toNanos(1), gigabytesPerSecond());
    }
}
