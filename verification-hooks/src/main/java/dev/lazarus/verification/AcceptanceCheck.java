package dev.lazarus.verification;

/**
 * Decides whether an application's result counts.
 *
 * @param <R> what the application hands over to be judged (a checksum, a residual, the final state)
 */
@FunctionalInterface
public interface AcceptanceCheck<R> {

    Verdict verify(R result);
}
