package dev.lazarus.daemon.l2;

import java.io.IOException;

/**
 * A version cannot be restored from L2 on this node: two or more members of its XOR set are lost, the set has no
 * parity at all, the survivors disagree, or the rebuilt files fail their checksums. Restart falls back to L3. The
 * message starts with "unrecoverable at L2" and names the job, version, set and reason.
 */
public class UnrecoverableAtL2Exception extends IOException {
    private static final long serialVersionUID = 1L;

    /** @param reason what was lost or damaged, with key=value context */
    public UnrecoverableAtL2Exception(String job, long version, int setId, String reason) {
        super("unrecoverable at L2: job=" + job + " version=" + version + " set=" + setId + ": " + reason);
    }
}
