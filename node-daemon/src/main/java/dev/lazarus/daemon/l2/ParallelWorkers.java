package dev.lazarus.daemon.l2;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Runs the workers of one parallel L2 job on platform threads (they block on sockets and files, and do the XOR work
 * in between) and waits for all. The first failure aborts the others (the caller closes every worker's connections,
 * which ends their blocked reads at once instead of at the I/O timeout) and is what {@link #run} throws.
 */
final class ParallelWorkers {
    /** One worker's share of the job. */
    @FunctionalInterface
    interface Worker {
        void run(int worker) throws IOException;
    }

    private ParallelWorkers() {
    }

    /**
     * @param name  thread name prefix
     * @param count workers; with one, it runs on the calling thread
     * @param abort run once on the first failure, to make the other workers fail fast
     * @throws IOException the first worker's failure, with the others' added as suppressed
     */
    static void run(String name, int count, Worker work, Runnable abort) throws IOException {
        if (count == 1) {
            work.run(0);
            return;
        }
        Throwable first = null;
        try (ExecutorService pool = Executors.newThreadPerTaskExecutor(
                Thread.ofPlatform().name(name + "-", 0).daemon().factory())) {
            // Completion order, not submission order: a failure must abort the others while they are still blocked.
            CompletionService<Void> done = new ExecutorCompletionService<>(pool);
            for (int w = 0; w < count; w++) {
                int worker = w;
                done.submit(() -> {
                    work.run(worker);
                    return null;
                });
            }
            for (int w = 0; w < count; w++) {
                try {
                    done.take().get();
                } catch (ExecutionException e) {
                    if (first == null) {
                        first = e.getCause();
                        abort.run();
                    } else {
                        first.addSuppressed(e.getCause());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    abort.run();
                    throw new IOException("interrupted: " + name, e);
                }
            }
        }
        switch (first) {
            case null -> { }
            case IOException e -> throw e;
            case RuntimeException e -> throw e;
            case Error e -> throw e;
            default -> throw new UncheckedIOException(new IOException(first));
        }
    }
}
