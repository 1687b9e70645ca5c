package dev.lazarus.store.drain;

import dev.lazarus.store.agent.Agent;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;

/**
 * The "checkpointing core" of one rank: it drains L1 versions to the slower levels in the background, each level at
 * its own interval. One version is in flight at a time. A version submitted while the previous one still drains
 * waits (back-pressure), and the wait is returned so that it shows up in the checkpoint's cost; a failed drain is
 * reported and leaves L1 (and every other level) as it was. Besides the versions checkpoints submit, one-off drains
 * outside the levels' intervals can be queued ({@link #submitOnce}): after a restart, re-encoding the parity of a
 * version that was rebuilt without it.
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
            while (busy()) {
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

    /**
     * Queues one drain of {@code version} to level {@code level} outside the levels' intervals. It runs before the
     * next submitted version, and until it has run {@link #submit} waits as for any drain and {@link #inFlight} lists
     * the version. Its result is recorded and reported like any other.
     */
    public synchronized void submitOnce(String level, long version, OneOffDrain work) {
        oneOffs.addLast(new OneOff(level, version, work));
        notifyAll();
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

    /** Waits until nothing is pending or draining. */
    public synchronized void awaitIdle() throws InterruptedException {
        while (busy()) {
            wait();
        }
    }

    private boolean busy() {
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
                record(drainOne(oneOff.level(), version, oneOff.work()));
            } else {
                for (DrainTarget target : targets) {
                    if (ordinal % target.every() == 0) {
                        record(drainOne(target.level(), version, target::drain));
                    }
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

    private static DrainResult drainOne(String level, long version, OneOffDrain work) {
        long started = System.nanoTime();
        try {
            long bytes = work.drain(version);
            return new DrainResult(version, level, bytes, System.nanoTime() - started, null);
        } catch (Exception e) {
            String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return new DrainResult(version, level, 0, System.nanoTime() - started,
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

    private record OneOff(String level, long version, OneOffDrain work) {
    }

    @Override
    public String roleName() {
        return "lazarus-drain";
    }
}
