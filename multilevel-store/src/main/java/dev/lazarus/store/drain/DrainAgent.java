package dev.lazarus.store.drain;

import dev.lazarus.store.agent.Agent;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
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
    private final Deque<DrainResult> history = new ArrayDeque<>();
    private long pending = NONE;
    private boolean draining;
    private long submitted;

    /**
     * @param targets  the levels, drained in this order (L2 before L3)
     * @param listener told of every result, on the agent's thread
     */
    public DrainAgent(List<DrainTarget> targets, Consumer<DrainResult> listener) {
        this.targets = List.copyOf(targets);
        this.listener = listener;
    }

    /**
     * Hands a version that L1 completed to the agent, waiting first for the previous one to finish draining.
     *
     * @return nanoseconds spent waiting (back-pressure)
     */
    public synchronized long submit(long version) throws InterruptedException {
        long started = System.nanoTime();
        while (pending != NONE || draining) {
            wait();
        }
        submitted++;
        if (targets.stream().anyMatch(t -> submitted % t.every() == 0)) {
            pending = version;
        }
        notifyAll();
        return System.nanoTime() - started;
    }

    /** Waits until nothing is pending or draining. */
    public synchronized void awaitIdle() throws InterruptedException {
        while (pending != NONE || draining) {
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
            ordinal = submitted;
            pending = NONE;
            draining = true;
        }
        try {
            for (DrainTarget target : targets) {
                if (ordinal % target.every() == 0) {
                    record(drainOne(target, version));
                }
            }
        } finally {
            synchronized (this) {
                draining = false;
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
