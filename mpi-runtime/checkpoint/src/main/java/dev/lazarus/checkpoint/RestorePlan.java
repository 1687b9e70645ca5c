package dev.lazarus.checkpoint;

import dev.lazarus.store.format.RankManifest;
import dev.lazarus.store.incremental.ChainRestorer;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * A relaunched rank's search for what it will restore, begun when its checkpoint client opens and done while the
 * application sets up (allocates, maps, fills its data), as a lost node's L2 rebuild is: the newest version this rank
 * holds, verified and any, and the manifests of that version's chain on L1, read and checked. The first restore
 * takes it instead of searching then, where in a new JVM the listing and the manifests' parsing run as interpreted
 * code (20-50 ms with four ranks on two cores). FTI's {@code FTI_Init} does the same work ahead of its recover.
 *
 * <p>It is an answer about the files as they were when it looked. Only the rank's own checkpoints and discards
 * change which versions it holds, and the owner drops the plan before either; what else could change them during
 * the set-up (a node's L2 rebuild writing a lost version, L3 pruning by a node daemon) is caught as before: a lost
 * version's rank does not read early, every version read is checked chunk by chunk, and a version some rank cannot
 * restore sends every rank to a new search.
 */
final class RestorePlan {
    /**
     * What the search found for one pass.
     *
     * @param version the newest version held, or -1
     * @param l1Chain that version's chain on L1, base first, checked; null if L1 lacks it or it did not check
     */
    record Found(long version, List<RankManifest> l1Chain) {
    }

    private record Answers(Found verified, Found any) {
    }

    private final CompletableFuture<Answers> answers;

    private RestorePlan(CompletableFuture<Answers> answers) {
        this.answers = answers;
    }

    /** Starts the search on a thread of its own and returns at once. */
    static RestorePlan start(VersionSearch search, CheckpointDirectory l1, int rank, int worldSize) {
        CompletableFuture<Answers> answers = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("lazarus-restore-plan").start(() -> {
            try {
                long verified = search.newestPresent(Long.MAX_VALUE, true);
                long any = search.newestPresent(Long.MAX_VALUE, false);
                Found verifiedFound = found(verified, l1, rank, worldSize);
                answers.complete(new Answers(verifiedFound,
                        any == verified ? verifiedFound : found(any, l1, rank, worldSize)));
            } catch (RuntimeException | Error e) {
                answers.completeExceptionally(e);
            }
        });
        return new RestorePlan(answers);
    }

    private static Found found(long version, CheckpointDirectory l1, int rank, int worldSize) {
        List<RankManifest> chain = null;
        if (version >= 0) {
            try {
                chain = ChainRestorer.chain(l1, version, rank, worldSize);
            } catch (IOException e) {
                // Not on L1, or damaged there: the restore reads what it finds and says why it passed over it.
            }
        }
        return new Found(version, chain);
    }

    /**
     * Waits for the search.
     *
     * @return the newest version for the pass, if it is no newer than {@code atMost}; else null (search again, the
     *         bound is below what was searched for)
     */
    Found take(boolean verifiedOnly, long atMost) {
        Answers done;
        try {
            done = answers.get();
        } catch (ExecutionException e) {
            return null; // the restore searches itself, and meets the same fault where it can report it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
        Found found = verifiedOnly ? done.verified() : done.any();
        return found.version() <= atMost ? found : null;
    }
}
