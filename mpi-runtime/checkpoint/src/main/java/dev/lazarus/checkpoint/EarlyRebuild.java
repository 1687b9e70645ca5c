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
    private final CompletableFuture<Finished> result = new CompletableFuture<>();

    /** What the rebuild gave, and how long it took. */
    record Finished(RebuildOutcome outcome, double seconds) {
    }

    private EarlyRebuild(long version) {
        this.version = version;
    }

    /** Starts {@code daemon.rebuild(version)} on a daemon thread; a failure it throws becomes a failed outcome. */
    static EarlyRebuild start(NodeDaemon daemon, long version) {
        EarlyRebuild rebuild = new EarlyRebuild(version);
        Thread.ofPlatform().daemon().name("l2-early-rebuild").start(() -> {
            long started = System.nanoTime();
            RebuildOutcome outcome;
            try {
                outcome = daemon.rebuild(version);
            } catch (RuntimeException | Error e) {
                outcome = RebuildOutcome.failed(Set.of(), version, e.toString());
            }
            rebuild.result.complete(new Finished(outcome, (System.nanoTime() - started) * 1e-9));
        });
        return rebuild;
    }

    long version() {
        return version;
    }

    /** Waits for the rebuild's end. */
    Finished await() {
        return result.join();
    }
}
