package dev.lazarus.store.drain;

import dev.lazarus.store.agent.Agent;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * The "checkpointing core" of one rank: it drains L1 versions to the slower levels in the background, each level at
 * its own interval. One version is in flight at a time. A version submitted while the previous one still drains
 * waits (back-pressure), and the wait is returned so that it shows up in the checkpoint's cost; a failed drain is
 * reported and leaves L1 (and every other level) as it was.
 */
public final class DrainAgent implements Agent {
    private static final int HISTORY = 1024;
    private static final long NONE = -1;

    private final List<DrainTarget> targets;
    private final Consumer<DrainResult> listener;
    private final boolean everyVersionWaits;
    private final Deque<DrainResult> history = new ArrayDeque<>();
    private long pending = NONE;
    private long pendingOrdinal;
    private long draining = NONE;
    private long submitted;

    /**
     * @param targets  the levels, drained in this order (L2 before L3)
     * @param listener told of every result, on the agent's thread
     */
    public DrainAgent(List<DrainTarget> targets, Consumer<DrainResult> listener) {
        this.targets = List.copyOf(targets);
        this.listener = listener;
        this.everyVersionWaits = this.targets.stream().anyMatch(DrainTarget::readsOtherNodes);
    }

    /**
     * Hands a version that L1 completed to the agent. A version that some level takes first waits for the previous
     * drain to finish (back-pressure); one that no level takes goes on at once, unless a target reads other nodes'
     * files ({@link DrainTarget#readsOtherNodes}). Meanwhile the version in flight must stay on L1: see
     * {@link #inFlight}.
     *
     * @return nanoseconds spent waiting (back-pressure)
     */
    public synchronized long submit(long version) throws InterruptedException {
        long started = System.nanoTime();
        long ordinal = submitted + 1;
        boolean drains = targets.stream().anyMatch(t -> ordinal % t.every() == 0);
        if (drains || everyVersionWaits) {
            while (pending != NONE || draining != NONE) {
                wait();
            }
        }
        submitted = ordinal;
        if (drains) {
            pending = version;
            pendingOrdinal = ordinal;
        }
        notifyAll();
        return System.nanoTime() - started;
    }

    /** @return the version waiting for or being drained, which L1 retention must keep with its chain */
    public synchronized OptionalLong inFlight() {
        return pending != NONE ? OptionalLong.of(pending)
                : draining != NONE ? OptionalLong.of(draining) : OptionalLong.empty();
    }

    /** Waits until nothing is pending or draining. */
    public synchronized void awaitIdle() throws InterruptedException {
        while (pending != NONE || draining != NONE) {
            wait();
        }
    }

    /** @return the most recent results, oldest first */
    public synchronized List<DrainResult> results() {
        return new ArrayList<>(history);
    }

    @Override
    public int doWork() {
        long version;
        long ordinal;
        synchronized (this) {
            if (pending == NONE) {
                return 0;
            }
            version = pending;
            ordinal = pendingOrdinal;
            pending = NONE;
            draining = version;
        }
        try {
            for (DrainTarget target : targets) {
                if (ordinal % target.every() == 0) {
                    record(drainOne(target, version));
                }
            }
        } finally {
            synchronized (this) {
                draining = NONE;
                notifyAll();
            }
        }
        return 1;
    }

    private static DrainResult drainOne(DrainTarget target, long version) {
        long started = System.nanoTime();
        try {
            long bytes = target.drain(version);
            return new DrainResult(version, target.level(), bytes, System.nanoTime() - started, null);
        } catch (Exception e) {
            String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return new DrainResult(version, target.level(), 0, System.nanoTime() - started,
                    e.getClass().getSimpleName() + ": " + reason);
        }
    }

    private void record(DrainResult result) {
        synchronized (this) {
            if (history.size() == HISTORY) {
                history.removeFirst();
            }
            history.addLast(result);
        }
        listener.accept(result);
    }

    @Override
    public String roleName() {
        return "lazarus-drain";
    }
}
