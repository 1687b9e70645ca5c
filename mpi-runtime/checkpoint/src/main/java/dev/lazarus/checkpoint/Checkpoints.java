package dev.lazarus.checkpoint;

import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.ReceiveHook;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.store.CorruptCheckpointException;
import dev.lazarus.store.ElementType;
import dev.lazarus.store.ProtectedRegion;
import dev.lazarus.store.Variable;
import dev.lazarus.store.agent.AgentRunner;
import dev.lazarus.store.dirty.WrittenPageScanner;
import dev.lazarus.store.dirty.WrittenPageScanners;
import dev.lazarus.store.drain.DrainAgent;
import dev.lazarus.store.drain.DrainResult;
import dev.lazarus.store.drain.DrainTarget;
import dev.lazarus.store.drain.LevelCopyTarget;
import dev.lazarus.store.incremental.ChainRestorer;
import dev.lazarus.store.incremental.CheckpointStats;
import dev.lazarus.store.incremental.IncrementalCheckpointer;
import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.store.level.Retention;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * The rank's checkpoint API, memory-based like VeloC's protect / checkpoint / restart. Every rank protects the same
 * variables, then calls {@link #checkpoint} and {@link #restart} collectively.
 *
 * <ul>
 *   <li>A checkpoint goes incrementally to L1 (the node's RAM disk); the ranks then agree whether every part was
 *       written. A complete version is handed to the drain thread, which copies every Nth to L3 (the PFS).</li>
 *   <li>MPI receives into protected memory are marked dirty by a receive hook, since network writes bypass page
 *       protection.</li>
 *   <li>Restart agrees on the newest version every rank can restore, from L1 where it survived and from L3
 *       otherwise, skipping damaged versions.</li>
 * </ul>
 */
public final class Checkpoints implements AutoCloseable {
    /** Names of the levels in {@link #levels()} order. */
    private static final List<String> LEVEL_NAMES = List.of("L1", "L3");
    private final Comm comm;
    private final CheckpointSettings settings;
    private final CheckpointDirectory l1;
    private final CheckpointDirectory l3;
    private final WrittenPageScanner scanner;
    private final IncrementalCheckpointer checkpointer;
    private final DrainAgent drain;
    private final AgentRunner drainRunner;
    private final ReceiveHook hook;
    private final Deque<Long> complete = new ArrayDeque<>();
    private final Consumer<String> log;
    private String restoredFrom = "";

    private Checkpoints(Comm comm, CheckpointSettings settings, Consumer<String> log) {
        this.comm = comm;
        this.settings = settings;
        this.log = log;
        this.l1 = new CheckpointDirectory(settings.l1Directory(), settings.jobId());
        this.l3 = settings.pfsDirectory().map(root -> new CheckpointDirectory(root, settings.jobId())).orElse(null);
        this.scanner = WrittenPageScanners.open();
        this.checkpointer = new IncrementalCheckpointer(l1, comm.rank(), comm.size(), settings.blockSize(),
                settings.fullEvery(), scanner);
        List<DrainTarget> targets = new ArrayList<>();
        if (l3 != null) {
            targets.add(new LevelCopyTarget("L3", l1, l3, comm.rank(), settings.pfsEvery()));
        }
        this.drain = new DrainAgent(targets, this::drained);
        this.drainRunner = new AgentRunner(drain, 1_000_000, e -> log.accept("drain: " + e)).start();
        this.hook = checkpointer::markReceived;
        comm.addReceiveHook(hook);
    }

    /**
     * Opens the checkpoint client of this rank; collective only in that every rank must open one.
     *
     * @param settings concluded settings
     * @param log      where one-line reports go (rank 0 prints them, typically)
     */
    public static Checkpoints open(Comm comm, CheckpointSettings settings, Consumer<String> log) {
        return new Checkpoints(comm, settings, log);
    }

    /** Protects a region of native or heap memory; every rank protects the same names in the same order. */
    public void protect(String name, MemorySegment memory, ElementType type, long... shape) {
        long[] dims = shape.length == 0 ? new long[] {memory.byteSize() / type.size()} : shape;
        checkpointer.protect(new ProtectedRegion(new Variable(name, type, dims), memory));
    }

    /** Protects a {@code double[]}. */
    public void protect(String name, double[] values) {
        protect(name, MemorySegment.ofArray(values), ElementType.DOUBLE);
    }

    /** Protects an {@code int[]}. */
    public void protect(String name, int[] values) {
        protect(name, MemorySegment.ofArray(values), ElementType.INT);
    }

    /** Protects a {@code long[]}. */
    public void protect(String name, long[] values) {
        protect(name, MemorySegment.ofArray(values), ElementType.LONG);
    }

    /**
     * Writes this rank's part of {@code version} to L1 and agrees with the other ranks whether the version is
     * complete. Collective. A complete version is queued for the slower levels.
     */
    public CheckpointReport checkpoint(long version) {
        CheckpointStats stats = null;
        String error = null;
        try {
            stats = checkpointer.checkpoint(version);
        } catch (IOException | RuntimeException e) {
            error = e.getMessage();
        }
        boolean everyRank = comm.allreduce(error == null ? 1L : 0L, ReduceOp.MIN) == 1L;
        long waited = 0;
        if (everyRank) {
            complete.addLast(version);
            while (complete.size() > settings.keep()) {
                complete.removeFirst();
            }
            waited = submitToDrain(version);
            prune();
        } else if (error != null) {
            log.accept("rank " + comm.rank() + ": checkpoint " + version + " failed: " + error);
        }
        return new CheckpointReport(version, everyRank, stats, error, waited);
    }

    /**
     * Restores the newest version every rank can restore, preferring L1 and falling back to L3 per rank. Damaged
     * versions are skipped with the reason logged. Collective.
     *
     * @return the restored version, or empty if there is none (start fresh)
     */
    public OptionalLong restart() {
        long bound = Long.MAX_VALUE;
        while (true) {
            long mine = newestRestorable(bound);
            long version = comm.allreduce(mine, ReduceOp.MIN);
            if (version < 0) {
                return OptionalLong.empty();
            }
            int[] level = {-1};
            String failure = mine == version || restorable(version) ? restoreFrom(version, level)
                    : "version not found";
            if (comm.allreduce(failure == null ? 1L : 0L, ReduceOp.MIN) == 1L) {
                long slowest = comm.allreduce((long) level[0], ReduceOp.MAX);
                long fastest = comm.allreduce((long) level[0], ReduceOp.MIN);
                restoredFrom = slowest == fastest ? LEVEL_NAMES.get((int) slowest)
                        : LEVEL_NAMES.get((int) fastest) + " and " + LEVEL_NAMES.get((int) slowest);
                checkpointer.restored();
                complete.clear();
                complete.addLast(version);
                return OptionalLong.of(version);
            }
            if (failure != null) {
                log.accept("rank " + comm.rank() + ": cannot restore version " + version + ": " + failure);
            }
            bound = version - 1;
        }
    }

    /**
     * @return where the last {@link #restart()} restored from: "L1", "L3", or "L1 and L3" when ranks differed (a
     *         node's RAM disk lost); empty before any restore
     */
    public String restoredFrom() {
        return restoredFrom;
    }

    /** @return what the page pre-filter is and how many variables it tracks */
    public String pageTracking() {
        return checkpointer.pageTracking();
    }

    /** @return the most recent drain results of this rank */
    public List<DrainResult> drainResults() {
        return drain.results();
    }

    /** Waits until the queued drain has finished. */
    public void awaitDrain() throws InterruptedException {
        drain.awaitIdle();
    }

    private long submitToDrain(long version) {
        try {
            return drain.submit(version);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    private void prune() {
        try {
            Retention.prune(l1, comm.rank(), complete);
        } catch (IOException e) {
            log.accept("rank " + comm.rank() + ": pruning L1 failed: " + e.getMessage());
        }
    }

    private void drained(DrainResult result) {
        if (!result.ok()) {
            log.accept("rank " + comm.rank() + ": version " + result.version() + " did not reach "
                    + result.level() + ": " + result.error());
        }
    }

    /** @return the newest version no newer than {@code bound} with an intact chain here, or -1 */
    private long newestRestorable(long bound) {
        long best = -1;
        for (CheckpointDirectory level : levels()) {
            try {
                List<Long> versions = level.versions();
                for (int i = versions.size() - 1; i >= 0; i--) {
                    long v = versions.get(i);
                    if (v <= bound && v > best && intact(level, v)) {
                        best = v;
                        break;
                    }
                }
            } catch (IOException e) {
                log.accept("rank " + comm.rank() + ": cannot list " + level.root() + ": " + e.getMessage());
            }
        }
        return best;
    }

    private boolean restorable(long version) {
        return levels().stream().anyMatch(level -> intact(level, version));
    }

    private boolean intact(CheckpointDirectory level, long version) {
        try {
            ChainRestorer.chain(level, version, comm.rank(), comm.size());
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * @param used receives the index in {@link #levels()} of the level restored from
     * @return null on success, else why every level failed
     */
    private String restoreFrom(long version, int[] used) {
        StringBuilder reasons = new StringBuilder();
        List<CheckpointDirectory> levels = levels();
        for (int i = 0; i < levels.size(); i++) {
            CheckpointDirectory level = levels.get(i);
            try {
                ChainRestorer.restore(level, version, comm.rank(), comm.size(), checkpointer.regions());
                used[0] = i;
                return null;
            } catch (CorruptCheckpointException e) {
                reasons.append(reasons.isEmpty() ? "" : "; ").append(e.getMessage());
            } catch (IOException e) {
                reasons.append(reasons.isEmpty() ? "" : "; ").append(level.root()).append(": ").append(e);
            }
        }
        return reasons.toString();
    }

    private List<CheckpointDirectory> levels() {
        return l3 == null ? List.of(l1) : List.of(l1, l3);
    }

    /**
     * Deletes this rank's files of every version on every level, after a finished run: the next run of the job
     * starts fresh, as it does after EasyCrash releases the heap. Waits for the drain first.
     */
    public void release() throws IOException {
        try {
            drain.awaitIdle();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (CheckpointDirectory level : levels()) {
            Retention.prune(level, comm.rank(), List.of());
        }
        complete.clear();
    }

    /** Finishes the queued drain, then stops the drain thread and the page tracking. */
    @Override
    public void close() {
        try {
            drain.awaitIdle();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        drainRunner.close();
        comm.removeReceiveHook(hook);
        checkpointer.close();
        scanner.close();
    }
}
