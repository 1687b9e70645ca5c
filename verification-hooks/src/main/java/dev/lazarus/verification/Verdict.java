package dev.lazarus.verification;

import java.util.Objects;

/**
 * The outcome of an acceptance verification: accepted or not, and a one-line reason a person can act on.
 *
 * @param accepted whether the result counts
 * @param reason   why, for example {@code "zeta=8.5971775 rel.err=2.1e-14 <= 1e-10"}
 */
public record Verdict(boolean accepted, String reason) {

    public Verdict {
        Objects.requireNonNull(reason, "reason");
    }

    public static Verdict accept(String reason) {
        return new Verdict(true, reason);
    }

    public static Verdict reject(String reason) {
        return new Verdict(false, reason);
    }

    /** Accepted only if both are; the reasons are joined, the rejecting one first. */
    public Verdict and(Verdict other) {
        if (accepted && !other.accepted) {
            return new Verdict(false, other.reason + "; " + reason);
        }
        return new Verdict(accepted && other.accepted, reason + "; " + other.reason);
    }
}
