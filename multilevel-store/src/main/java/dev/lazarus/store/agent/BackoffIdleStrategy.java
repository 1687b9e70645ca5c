package dev.lazarus.store.agent;

import java.util.concurrent.locks.LockSupport;

/**
 * Spins a few times, then parks for growing periods (doubling from {@code minParkNanos}) up to {@code maxParkNanos}:
 * an idle loop costs no core, and a loop that just went idle reacts within microseconds. A park ends early on
 * {@link LockSupport#unpark}, which is how a runner is woken.
 */
public final class BackoffIdleStrategy implements IdleStrategy {
    /** Calls without work that only spin before the first park. */
    public static final int DEFAULT_SPINS = 10;
    /** The first park. */
    public static final long DEFAULT_MIN_PARK_NANOS = 1_000;

    private final int spins;
    private final long minParkNanos;
    private final long maxParkNanos;
    private int idleCalls;

    /** Spins {@value #DEFAULT_SPINS} times, then parks from 1 µs up to {@code maxParkNanos}. */
    public BackoffIdleStrategy(long maxParkNanos) {
        this(DEFAULT_SPINS, DEFAULT_MIN_PARK_NANOS, maxParkNanos);
    }

    /** @throws IllegalArgumentException if a bound is negative or the park bounds are reversed */
    public BackoffIdleStrategy(int spins, long minParkNanos, long maxParkNanos) {
        if (spins < 0 || minParkNanos < 1 || maxParkNanos < minParkNanos) {
            throw new IllegalArgumentException("back-off spins=" + spins + " minParkNanos=" + minParkNanos
                    + " maxParkNanos=" + maxParkNanos + ": need spins >= 0 and 1 <= minPark <= maxPark");
        }
        this.spins = spins;
        this.minParkNanos = minParkNanos;
        this.maxParkNanos = maxParkNanos;
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            idleCalls = 0;
            return;
        }
        idleCalls++;
        if (idleCalls > spins) {
            // Doubling stops at 2^20 x minPark, long before a shift could overflow.
            LockSupport.parkNanos(this, Math.min(maxParkNanos, minParkNanos << Math.min(20, idleCalls - spins)));
        } else {
            Thread.onSpinWait();
        }
    }

    /** @return the park the next idle call without work would take, 0 while spinning (for tests and reports) */
    long nextParkNanos() {
        int next = idleCalls + 1;
        return next > spins ? Math.min(maxParkNanos, minParkNanos << Math.min(20, next - spins)) : 0;
    }

    @Override
    public void reset() {
        idleCalls = 0;
    }
}
