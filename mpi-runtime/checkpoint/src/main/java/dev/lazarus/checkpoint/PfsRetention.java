package dev.lazarus.checkpoint;

import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.store.catalog.Catalog;
import dev.lazarus.store.catalog.Retention;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.function.Consumer;

/**
 * L3's own retention: once a version has fully drained to L3 (every rank's part), each rank deletes its files of the
 * L3 versions older than the newest {@code lazarus.ckpt.pfs.keep} complete ones ({@link
 * Retention#pruneToNewestComplete}). The deletion runs off the rank's thread, on its drain thread: unlinking large
 * files on a parallel file system (or a disk mounted with discard) takes a while, 0.2 s for 4 x 256 MiB here.
 *
 * <p>Each rank's drain thread reports the versions whose part reached L3. Which version every rank drained is agreed
 * on the checkpoint's own allreduce (the MIN of {@link #newestDrained}) plus, once per new candidate, one more
 * allreduce: so every rank prunes at the same checkpoint, and no rank reads the other ranks' L3 manifests for the
 * versions this run drained. Only versions an earlier launch (or a skipped agreement) left are judged by the catalog.
 */
final class PfsRetention {
    /** Versions of this rank's drained parts remembered; agreement lags the drain by a checkpoint or a few. */
    private static final int DRAINED_HISTORY = 64;
    private static final long NONE = -1;

    private final CheckpointDirectory l3;
    private final int rank;
    private final int keep;
    private final Consumer<String> log;
    private final boolean drainedByLeader;
    /** Written by the drain thread, read by the rank's thread. */
    private final NavigableSet<Long> drained = new ConcurrentSkipListSet<>();
    /** Versions known complete on L3, at most {@code keep} of the newest; the rank's thread only. */
    private final NavigableSet<Long> complete = new TreeSet<>();
    private long lastCandidate = NONE;
    /** Versions never pruned while the run writes unverified versions (recovery invariant 2). */
    private Set<Long> preserved = Set.of();
    /** Runs a pruning, in order with the drains and off the rank's thread. */
    private final Consumer<Runnable> background;

    /**
     * @param l3                the job's L3 directory, or null when L3 is off
     * @param keep              complete versions to keep on L3; 0 keeps all
     * @param drainedByLeader   whether this rank's node leader has the node daemon drain this rank's files: the
     *                          leader's drained versions stand for it, so this rank never holds back the agreement
     * @param background        runs a pruning after the drains queued before it, on another thread; a restore waits
     *                          for it
     */
    PfsRetention(CheckpointDirectory l3, int rank, int keep, Consumer<String> log, boolean drainedByLeader,
                 Consumer<Runnable> background) {
        this.l3 = l3;
        this.rank = rank;
        this.keep = keep;
        this.log = log;
        this.drainedByLeader = drainedByLeader;
        this.background = background;
    }

    /** On the drain thread: this rank's part of {@code version} reached L3. */
    void drained(long version) {
        drained.add(version);
        while (drained.size() > DRAINED_HISTORY) {
            drained.pollFirst();
        }
    }

    /** @return the newest version whose part this rank drained to L3, or -1; the ranks agree on its minimum */
    long newestDrained() {
        if (drainedByLeader) {
            return Long.MAX_VALUE; // the minimum is the node leaders'
        }
        return drained.isEmpty() ? NONE : drained.last();
    }

    /**
     * Collective: called by every rank at the same checkpoint with the same {@code candidate}, the minimum over the
     * ranks of {@link #newestDrained}. If every rank drained the candidate, it is complete on L3, and each rank has
     * its own L3 files pruned to the newest {@code keep} complete versions, in the background.
     */
    void agree(Comm comm, long candidate) {
        if (candidate <= lastCandidate) {
            return; // the same decision on every rank: candidate and lastCandidate come from collectives
        }
        lastCandidate = candidate;
        boolean mine = drainedByLeader || drained.contains(candidate);
        boolean everyRank = comm.allreduce(mine ? 1L : 0L, ReduceOp.MIN) == 1L;
        if (!everyRank || keep == 0) {
            return; // a rank's part failed: a later version will complete
        }
        complete.add(candidate);
        // The other thread gets copies: this one goes on changing both sets.
        Set<Long> known = Set.copyOf(complete);
        Set<Long> kept = preserved;
        background.accept(() -> {
            try {
                Retention.pruneToNewestComplete(l3, rank, candidate, keep, version -> isComplete(known, version),
                        kept);
            } catch (IOException e) {
                log.accept("rank " + rank + ": pruning L3 failed: " + e.getMessage());
            }
        });
        while (complete.size() > keep) {
            complete.pollFirst();
        }
    }

    /**
     * Versions this run saw every rank drain ({@code known}) are complete; others (an earlier launch's, or one whose
     * agreement was overtaken by a newer candidate) are judged from their manifests on L3.
     */
    private boolean isComplete(Set<Long> known, long version) {
        if (known.contains(version)) {
            return true;
        }
        try {
            return new Catalog(l3).status(version, false).complete();
        } catch (IOException e) {
            // counted incomplete, it can go only once it is older than every kept version
            log.accept("rank " + rank + ": cannot read L3 version " + version + ": " + e.getMessage());
        }
        return false;
    }

    /** Keeps {@code versions} (with their chains) on L3 whatever newer versions complete; empty to stop. */
    void preserve(Set<Long> versions) {
        preserved = Set.copyOf(versions);
    }

    /**
     * After a restart to {@code version} (or -1 for none): newer version numbers will be written again, so what was
     * drained or agreed of them is forgotten. Collective in effect: every rank restarts to the same version.
     */
    void restarted(long version) {
        drained.tailSet(version, false).clear();
        complete.tailSet(version, false).clear();
        lastCandidate = Math.min(lastCandidate, version);
    }
}
