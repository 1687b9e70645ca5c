package dev.lazarus.checkpoint;

import dev.lazarus.daemon.NodeDaemon;
import dev.lazarus.daemon.RebuildOutcome;

import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A node's L2 rebuild of the version its launch will restore, started as soon as the node's daemon has joined its
 * set, on a thread of its own: the ranks' set-up (their heaps, the application's initialization; seconds on a
 * relaunch) and the rebuild then overlap, and the restore finds the node's files in place. The coordinator names the
 * version before the launch, so nothing is guessed: a node rebuilds only what its L1 lacks of that version.
 */
final class EarlyRebuild {
    private final long version;
    private final long startedNanos = System.nanoTime();
    private final CompletableFuture<Finished> result = new CompletableFuture<>();

    /** What the rebuild gave, and when it ended. */
    record Finished(RebuildOutcome outcome, long endedNanos) {
    }

    private EarlyRebuild(long version) {
        this.version = version;
    }

    /** Starts {@code daemon.rebuild(version)} on a daemon thread. */
    static EarlyRebuild start(NodeDaemon daemon, long version) {
        EarlyRebuild rebuild = new EarlyRebuild(version);
        Thread.ofPlatform().daemon().name("l2-early-rebuild").start(() -> {
            try {
                rebuild.result.complete(new Finished(daemon.rebuild(version), System.nanoTime()));
            } catch (RuntimeException | Error e) {
                rebuild.result.completeExceptionally(e);
            }
        });
        return rebuild;
    }

    long version() {
        return version;
    }

    long startedNanos() {
        return startedNanos;
    }

    /** Waits for the rebuild's end; a failure the daemon threw comes as an outcome, not an exception. */
    Finished await() {
        try {
            return result.join();
        } catch (RuntimeException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            return new Finished(RebuildOutcome.failed(Set.of(), version, cause.toString()), System.nanoTime());
        }
    }
}
