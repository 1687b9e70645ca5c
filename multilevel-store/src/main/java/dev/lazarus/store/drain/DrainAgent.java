package dev.lazarus.store.drain;

import dev.lazarus.store.agent.Agent;
import dev.lazarus.store.agent.BackoffIdleStrategy;
import dev.lazarus.store.agent.IdleStrategy;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The "checkpointing core" of one rank: it drains L1 versions to the slower levels in the background, each level at
 * its own interval. One version is in flight at a time. A version submitted while the previous one still drains
 * waits (back-pressure), and the wait is returned so that it shows up in the checkpoint's cost; a failed drain is
 * reported and leaves L1 (and every other level) as it was. Besides the versions checkpoints submit, one-off drains
 * outside the levels' intervals can be queued ({@link #submitOnce}): after a restart, re-encoding the parity of a
 * version that was rebuilt without it.
 *
 * <p>One thread hands work over (the rank's main thread: {@link #submit}, {@link #submitOnce}, {@link #awaitIdle});
 * the agent's thread drains. The short critical sections that publish the state are {@code synchronized}; nobody waits
 * on the monitor: a thread that must wait for the drain idles with a {@link BackoffIdleStrategy}, and the agent
 * unparks it as soon as a drain ends.
 */
public final class DrainAgent implements Agent {
    private static final int HISTORY = 1024;
    private static final long NONE = -1;

    private final List<DrainTarget> targets;
    private final Consumer<DrainResult> listener;
    private final boolean everyVersionWaits;
    private final Deque<DrainResult> history = new ArrayDeque<>();
    private final Deque<OneOff> oneOffs = new ArrayDeque<>();
    private long pending = NONE;
    private long pendingOrdinal;
    private long draining = NONE;
    private long submitted;
    /** The thread in {@link #awaitIdle}, which the agent unparks when a drain ends; else null. */
    private volatile Thread waiter;

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
    public long submit(long version) throws InterruptedException {
        long started = System.nanoTime();
        long ordinal;
        synchronized (this) {
            ordinal = submitted + 1;
        }
        boolean drains = targets.stream().anyMatch(t -> ordinal % t.every() == 0);
        if (drains || everyVersionWaits) {
            awaitIdle(); // only this thread hands work over, so nothing becomes busy again before the next lines
        }
        synchronized (this) {
            submitted = ordinal;
            if (drains) {
                pending = version;
                pendingOrdinal = ordinal;
            }
        }
        return System.nanoTime() - started;
    }

    /**
     * Queues one drain of {@code version} to level {@code level} outside the levels' intervals. It runs before the
     * next submitted version, and until it has run {@link #submit} waits as for any drain and {@link #inFlight} lists
     * the version. Its result is recorded and reported like any other.
     */
    public synchronized void submitOnce(String level, long version, OneOffDrain work) {
        oneOffs.addLast(new OneOff(level, version, work));
    }

    /** The work of a {@link #submitOnce} drain. */
    @FunctionalInterface
    public interface OneOffDrain {
        /** @return bytes written to the level */
        long drain(long version) throws IOException;
    }

    /**
     * @return the versions waiting for or being drained, which L1 retention must keep with their chains: at most one
     *         submitted version, and any queued by {@link #submitOnce}
     */
    public synchronized List<Long> inFlight() {
        List<Long> versions = new ArrayList<>();
        if (draining != NONE) {
            versions.add(draining);
        }
        oneOffs.forEach(o -> versions.add(o.version()));
        if (pending != NONE) {
            versions.add(pending);
        }
        return versions;
    }

    /**
     * Waits until nothing is pending or draining: parks in growing steps up to a millisecond, and is unparked as soon
     * as a drain ends.
     *
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    public void awaitIdle() throws InterruptedException {
        IdleStrategy idle = new BackoffIdleStrategy(TimeUnit.MILLISECONDS.toNanos(1));
        waiter = Thread.currentThread();
        try {
            while (busy()) {
                if (Thread.interrupted()) {
                    throw new InterruptedException("interrupted while the drain was busy");
                }
                idle.idle(0);
            }
        } finally {
            waiter = null;
        }
    }

    private synchronized boolean busy() {
        return pending != NONE || draining != NONE || !oneOffs.isEmpty();
    }

    /** @return the most recent results, oldest first */
    public synchronized List<DrainResult> results() {
        return new ArrayList<>(history);
    }

    @Override
    public int doWork() {
        OneOff oneOff;
        long version;
        long ordinal;
        synchronized (this) {
            oneOff = oneOffs.pollFirst();
            if (oneOff == null && pending == NONE) {
                return 0;
            }
            version = oneOff != null ? oneOff.version() : pending;
            ordinal = pendingOrdinal;
            if (oneOff == null) {
                pending = NONE;
            }
            draining = version;
        }
        try {
            if (oneOff != null) {
                record(drainOne(oneOff.level(), version, List.of(DrainStage.of(oneOff.level(), oneOff.work()))));
            } else {
                for (DrainTarget target : targets) {
                    if (ordinal % target.every() == 0) {
                        record(drainOne(target.level(), version, target.stages()));
                    }
                }
            }
        } finally {
            synchronized (this) {
                draining = NONE;
            }
            Thread waiting = waiter;
            if (waiting != null) {
                LockSupport.unpark(waiting);
            }
        }
        return 1;
    }

    /**
     * Runs a level's stages on one version, in order, until one fails. The drain's bytes are what the done stages
     * wrote; its error is the failed stage's reason, or an exception's.
     */
    private static DrainResult drainOne(String level, long version, List<DrainStage> stages) {
        long started = System.nanoTime();
        List<StageOutcome> outcomes = new ArrayList<>(stages.size());
        long bytes = 0;
        for (DrainStage stage : stages) {
            StageOutcome outcome;
            try {
                outcome = stage.run(version, List.copyOf(outcomes));
            } catch (Exception e) {
                String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
                outcome = StageOutcome.failed(stage.name(), e.getClass().getSimpleName() + ": " + reason);
            }
            outcomes.add(outcome);
            if (outcome.status() == StageOutcome.Status.FAILED) {
                String error = stages.size() == 1 ? outcome.reason() : outcome.stage() + ": " + outcome.reason();
                return new DrainResult(version, level, 0, System.nanoTime() - started, error, outcomes);
            }
            bytes += outcome.bytes();
        }
        return new DrainResult(version, level, bytes, System.nanoTime() - started, null, outcomes);
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

    private record OneOff(String level, long version, OneOffDrain work) {
    }

    @Override
    public String roleName() {
        return "lazarus-drain";
    }
}
