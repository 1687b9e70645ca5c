package dev.lazarus.checkpoint;

import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.ReceiveHook;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.mpi.launch.HeartbeatFile;
import dev.lazarus.recovery.policy.FixedOrderPolicy;
import dev.lazarus.recovery.policy.Level;
import dev.lazarus.recovery.policy.RecoveryPolicy;
import dev.lazarus.recovery.policy.VersionPass;
import dev.lazarus.store.CorruptCheckpointException;
import dev.lazarus.store.ElementType;
import dev.lazarus.store.ProtectedRegion;
import dev.lazarus.store.Variable;
import dev.lazarus.store.agent.AgentRunner;
import dev.lazarus.store.catalog.Retention;
import dev.lazarus.store.dirty.WrittenPageScanner;
import dev.lazarus.store.dirty.uffd.WrittenPageScanners;
import dev.lazarus.store.drain.DrainAgent;
import dev.lazarus.store.drain.DrainResult;
import dev.lazarus.store.drain.DrainTarget;
import dev.lazarus.store.drain.LevelCopyTarget;
import dev.lazarus.store.format.DataFileReader;
import dev.lazarus.store.format.RankManifest;
import dev.lazarus.store.incremental.ChainRestorer;
import dev.lazarus.store.incremental.CheckpointStats;
import dev.lazarus.store.incremental.IncrementalCheckpointer;
import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.store.level.l2.ParityFiles;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The rank's checkpoint API, memory-based like VeloC's protect / checkpoint / restart. Every rank protects the same
 * variables, then calls {@link #checkpoint} and {@link #restart} collectively.
 *
 * <ul>
 *   <li>A checkpoint goes incrementally to L1 (the node's RAM disk); the ranks then agree whether every part was
 *       written. A complete version is handed to the drain thread, which on each node's leader encodes the node's
 *       XOR parity of it (L2, {@link L2Node}) and on every rank copies every Nth to L3 (the PFS).</li>
 *   <li>Each level keeps its newest complete versions: L1 prunes at every checkpoint, L3 once every rank's part of
 *       a newer version has drained ({@link PfsRetention}).</li>
 *   <li>MPI receives into protected memory are marked dirty by a receive hook, since network writes bypass page
 *       protection.</li>
 *   <li>Restart tries the newest version any rank holds, on the levels in the order the recovery policy gives
 *       ({@link FixedOrderPolicy}: from L1 where it survived, else from L1 after the node's files were rebuilt from
 *       its XOR set (L2), else from L3); a version some rank cannot restore is skipped with the reason logged, and
 *       the next older one is tried. A rebuilt node's parity of the restored version is encoded again by its drain
 *       thread while the ranks resume. The ranks gather the facts and carry out the policy's answers; they do not
 *       decide.</li>
 * </ul>
 */
public final class Checkpoints implements AutoCloseable {
    /** Decides the order of versions and levels a restart tries, and which lost nodes L2 can rebuild. */
    private static final RecoveryPolicy POLICY = FixedOrderPolicy.INSTANCE;
    /** The drain thread's name for L3 pruning, which it runs after the drains queued before. */
    private static final String L3_RETENTION = "L3 retention";
    private final Comm comm;
    private final CheckpointSettings settings;
    private final CheckpointDirectory l1;
    private final CheckpointDirectory l3;
    private final WrittenPageScanner scanner;
    private final IncrementalCheckpointer checkpointer;
    private final DrainAgent drain;
    private final AgentRunner drainRunner;
    private final ReceiveHook hook;
    private final L2Node l2;
    /** L3 drains by the node daemons, when they are processes; else each rank drains its own files. */
    private final DaemonL3Drain l3Drain;
    /**
     * The oldest and newest version the leaders' drains had in flight at the last checkpoint, with node daemons
     * draining L3 (empty: none): kept on L1 by every rank, whose files a daemon may be reading.
     */
    private List<Long> daemonDraining = List.of();
    private final PfsRetention pfsRetention;
    private final Deque<Long> complete = new ArrayDeque<>();
    private final Consumer<String> log;
    private final LevelFailureLog levelFailures = new LevelFailureLog();
    private final LevelIncidents incidents = new LevelIncidents();
    private String restoredFrom = "";
    private Level deepestRestored;
    /** This rank's time in reading and checking data files during the current version's restore attempt. */
    private long readNanos;
    /** Whether the copy this rank restored in the current attempt was written from unverified state. */
    private boolean readUnverified;
    /** This rank's read of its own newest version from L1 before the ranks agreed on a version, or null. */
    private L1Read ownNewestRead;
    /** The slowest rank's {@link #readNanos} of the last restored version. */
    private long slowestReadNanos;
    /** Whether this run writes unverified versions (recovery invariant 2). */
    private boolean unverified;
    /** This rank's verified versions per level, kept whatever newer versions complete while {@link #unverified}. */
    private Set<Long> preservedL1 = Set.of();
    /**
     * The newest version every node had written its L2 parity of, as the ranks agreed at the last checkpoint (-1:
     * none); kept on L1, with its chain, until a newer one is.
     */
    private long l2Protected = -1;
    /** Whether the restore under way may rebuild a node's lost L1 files from L2 (the coordinator's choice). */
    private boolean l2Rebuild = true;
    /** The version this rank's L1 lacked when {@link #prepareRestart} looked, or -1. */
    private long lostBeforeSetUp = -1;
    private final VersionSearch search;
    /** The search begun at open for the first restore; dropped by anything that changes the versions held. */
    private RestorePlan plan;
    /**
     * Whether a checkpoint or restore ran in this process (the same on every rank: both are collective); before
     * either, no drain can be changing the levels a restore reads, and the restore does not wait for the ranks'.
     */
    private boolean levelsUsedHere;
    /** What {@link #heldOnL1} said of each version, so each is measured once. */
    private final Map<Long, HeartbeatFile.Held> held = new HashMap<>();

    private Checkpoints(Comm comm, CheckpointSettings settings, Consumer<String> log) {
        this.comm = comm;
        this.settings = settings;
        this.log = log;
        SameSettings.check(comm, settings);
        // L1 is a RAM disk: a pruned version's pages are overwritten by the next version instead of freed.
        this.l1 = new CheckpointDirectory(settings.l1Directory(), settings.jobId(), true);
        this.l3 = settings.pfsDirectory().map(root -> new CheckpointDirectory(root, settings.jobId())).orElse(null);
        this.scanner = WrittenPageScanners.open();
        // Rank 0 says what increments are built on; any rank without the pre-filter says why it hashes every page.
        if (comm.rank() == 0 || !scanner.precise()) {
            log.accept("rank " + comm.rank() + ": page tracking: " + scanner.description());
        }
        this.checkpointer = new IncrementalCheckpointer(l1, comm.rank(), comm.size(), settings.blockSize(),
                settings.fullEvery(), scanner);
        NodeMap nodes = NodeMap.gather(comm, settings.node());
        this.l2 = L2Node.open(comm, settings, nodes, log);
        if (comm.rank() == 0 && nodes.nodes() > 1) {
            log.accept("rank 0: " + l2.describe());
        }
        this.l3Drain = DaemonL3Drain.open(comm, settings, nodes, l1, l3 != null, log);
        if (comm.rank() == 0 && l3Drain.byNodeDaemon()) {
            log.accept("rank 0: L3 drains run in the node daemons, each for its node's ranks, at background priority");
        }
        List<DrainTarget> targets = new ArrayList<>();
        if (l2.encodes()) {
            targets.add(new L2Target(l2, settings.l2Every()));
        }
        if (l3 != null && l3Drain.byNodeDaemon()) {
            l3Drain.target(settings.pfsEvery(), l3.root(), settings.pfsDirect()).ifPresent(targets::add);
        } else if (l3 != null) {
            targets.add(new LevelCopyTarget(Level.L3.name(), l1, l3, comm.rank(), settings.pfsEvery(),
                    settings.pfsDirect()));
        }
        this.drain = new DrainAgent(targets, this::drained);
        // A rank whose node daemon drains its files to L3 learns of each drain from the leader, through the agreement.
        // Its L3 pruning runs on the drain thread, after the drains queued before it.
        this.pfsRetention = new PfsRetention(l3, comm.rank(), settings.pfsKeep(), log,
                l3Drain.byNodeDaemon() && !nodes.isLeader(comm.rank()),
                pruning -> drain.submitOnce(L3_RETENTION, complete.getLast(), version -> {
                    pruning.run();
                    return 0;
                }));
        // The drain is the checkpointing core: its copies yield the CPU and the disk to the ranks.
        this.drainRunner = new AgentRunner(drain, 1_000_000, e -> log.accept("drain: " + e)).background().start();
        this.hook = checkpointer::markReceived;
        comm.addReceiveHook(hook);
        this.search = new VersionSearch(levels(), comm.rank(), log);
        this.plan = RestorePlan.start(search, l1, comm.rank(), comm.size());
    }

    /**
     * Opens the checkpoint client of this rank and, on each node's leader, the node's L2 service; collective.
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

    /**
     * Forgets every protected region: a rollback that attaches new memory under the same names calls this before
     * protecting them again. The next checkpoint is full.
     */
    public void unprotectAll() {
        checkpointer.unprotectAll();
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
     * complete. Collective. A complete version is queued for the slower levels, L1 is pruned to the newest
     * {@code lazarus.ckpt.keep} complete versions, and, once an L3 version has fully drained, L3 to the newest
     * {@code lazarus.ckpt.pfs.keep}.
     */
    public CheckpointReport checkpoint(long version) {
        plan = null; // a new version: the search at open is out of date
        levelsUsedHere = true;
        CheckpointStats stats = null;
        String error = null;
        try {
            stats = checkpointer.checkpoint(version);
            incidents.roomOn(LevelIncidents.L1);
        } catch (IOException | RuntimeException e) {
            error = e.getMessage();
            if (LevelIncidents.noRoom(e)) {
                incidents.full(LevelIncidents.L1, version);
            }
        }
        // One allreduce: did every rank write this version, which L3 version may every rank have drained, and the
        // oldest and newest (negated, under MIN) version a node daemon may still be draining for a leader.
        long[] draining = leaderDraining();
        long[] agreed = {error == null ? 1L : 0L, pfsRetention.newestDrained(), draining[0], -draining[1]};
        comm.allreduce(agreed, 0, agreed, 0, agreed.length, ReduceOp.MIN);
        boolean everyRank = agreed[0] == 1L;
        daemonDraining = agreed[2] == Long.MAX_VALUE ? List.of() : List.of(agreed[2], -agreed[3]);
        long waited = 0;
        if (everyRank) {
            complete.addLast(version);
            while (complete.size() > settings.keep()) {
                complete.removeFirst();
            }
            waited = submitToDrain(version);
            if (l2.enabled()) {
                // After the wait for the previous version's drain, which wrote its parity (unless a node daemon
                // still is): which version has every node written its parity of.
                l2Protected = comm.allreduce(newestWithParity(), ReduceOp.MIN);
            }
            prune();
            pfsRetention.agree(comm, agreed[1]);
        } else if (error != null) {
            // A full RAM disk fails every checkpoint after: said once, and again when one fits.
            levelFailures.failed(Level.L1.name(), version, error)
                    .ifPresent(line -> log.accept("rank " + comm.rank() + ": " + line));
        }
        if (error == null) {
            levelFailures.reached(Level.L1.name(), version)
                    .ifPresent(line -> log.accept("rank " + comm.rank() + ": " + line));
        }
        return new CheckpointReport(version, everyRank, stats, error, waited);
    }

    /**
     * Prepares the restore the coordinator chose before this launch, ahead of the ranks' set-up: where this node's L1
     * lacks the version and the node can rebuild it from its L2 set, its leader starts that rebuild now, on a thread
     * of its own, and the restore ({@link #restart(long, boolean)}) takes its outcome. Collective; every rank passes
     * the same arguments. Nothing happens for {@code atMost} below 0 or {@link Long#MAX_VALUE} (no version named).
     *
     * @param atMost    the version the coordinator chose
     * @param l2Rebuild whether a node that lost its L1 files rebuilds them from its set
     */
    public void prepareRestart(long atMost, boolean l2Rebuild) {
        boolean named = atMost >= 0 && atMost != Long.MAX_VALUE && rebuildsFromL2(l2Rebuild);
        boolean missing = named && !Files.exists(l1.manifestFile(atMost, comm.rank()));
        // Every rank looks at its files before the leader's rebuild can write them: the allreduce orders the two.
        if (named && comm.allreduce(missing ? 1L : 0L, ReduceOp.MAX) == 1L) {
            if (missing) {
                lostBeforeSetUp = atMost;
                l2.startRebuild(atMost);
            }
        }
    }

    /** @return whether a node that lost its L1 files rebuilds them from L2, given the coordinator's choice */
    private boolean rebuildsFromL2(boolean l2Rebuild) {
        return l2Rebuild && l2.enabled() && POLICY.levelOrder().contains(Level.L2);
    }

    /** Waits for the search begun at open, if it is still pending (tests: to change the files after it looked). */
    void awaitRestorePlan() {
        RestorePlan pending = plan;
        if (pending != null) {
            pending.take(false, Long.MAX_VALUE);
        }
    }

    /**
     * Restores the newest version every rank can restore: each rank from L1 where its files survived, else from L1
     * after its node's files were rebuilt from the node's XOR set (L2), else from L3. A version some rank cannot
     * restore is skipped, with each rank's reasons logged. A node rebuilt from L2 gets its parity of the version back
     * in the background, from its drain thread. Collective.
     *
     * @return the restored version, or empty if there is none (start fresh)
     */
    public OptionalLong restart() {
        return restart(Long.MAX_VALUE, true);
    }

    /**
     * {@link #restart()} as the coordinator chose it; collective, and every rank must pass the same arguments.
     *
     * @param atMost    the newest version to restore (the one the coordinator chose); below 0: none (start fresh)
     * @param l2Rebuild whether a node that lost its L1 files rebuilds them from its set; without, its ranks read L3
     */
    public OptionalLong restart(long atMost, boolean l2Rebuild) {
        // A rollback in the same run: no drain or L3 pruning may still be changing the levels the restore reads.
        if (levelsUsedHere) {
            awaitEveryDrain();
        }
        levelsUsedHere = true;
        this.l2Rebuild = l2Rebuild;
        RestorePlan planned = plan;
        plan = null; // the first restore's: a later one finds the versions this run wrote, and what it pruned
        List<VersionPass> passes = POLICY.versionPasses();
        for (VersionPass pass : atMost < 0 ? List.<VersionPass>of() : passes) {
            boolean verifiedOnly = pass == VersionPass.VERIFIED_ONLY;
            OptionalLong restored = restartNewest(verifiedOnly, atMost,
                    planned == null ? null : planned.take(verifiedOnly, atMost));
            if (restored.isPresent()) {
                return restored;
            }
        }
        l2.forgetNewerThan(-1);
        pfsRetention.restarted(-1);
        deepestRestored = null;
        return OptionalLong.empty();
    }

    /**
     * @param verifiedOnly whether versions written from unverified state are passed over; collective
     * @param atMost       the newest version to try
     * @param planned      what the search at open found for this pass, or null: search now
     */
    private OptionalLong restartNewest(boolean verifiedOnly, long atMost, RestorePlan.Found planned) {
        try {
            long own = planned != null ? planned.version() : search.newestPresent(atMost, verifiedOnly);
            RestoreOutcome outcome = readOwnNewestFromL1(own, planned != null ? planned.l1Chain() : null);
            if (outcome.sameVersionEverywhere() && outcome.everyRankRestored()) {
                return restored(own, outcome);
            }
            long version = outcome.newestVersion();
            while (version >= 0) {
                Level level = restoreAt(version);
                comm.idleBarrier(); // the ranks done first wait for the slowest one's read without taking its core
                outcome = agreeOnOutcome(version, level);
                if (outcome.everyRankRestored()) {
                    return restored(version, outcome);
                }
                version = comm.allreduce(search.newestPresent(version - 1, verifiedOnly), ReduceOp.MAX);
            }
            return OptionalLong.empty();
        } finally {
            ownNewestRead = null;
        }
    }

    /**
     * The common restore in one collective: every rank reads its own newest version from L1 before the ranks agree
     * on a version, and the agreement carries the outcome. Where every rank held the same version and read it, that
     * is the restore (what {@link #restoreAt} would have done for it: no node lost it, so no L2 step); else the
     * ranks go on with the newest version any of them holds, as before, and a rank whose read here was of that
     * version keeps its outcome instead of reading again. A rank whose node began an L2 rebuild before the set-up
     * does not read here: the rebuild is writing its L1 files. Collective.
     *
     * @param own     this rank's newest version no newer than the bound, or -1
     * @param l1Chain that version's chain on L1 as the search at open read it, or null: read it now
     */
    private RestoreOutcome readOwnNewestFromL1(long own, List<RankManifest> l1Chain) {
        readNanos = 0;
        readUnverified = false;
        Level level = null;
        if (own >= 0 && lostBeforeSetUp < 0 && POLICY.levelOrder().getFirst() == Level.L1
                && Files.exists(l1.manifestFile(own, comm.rank()))) {
            List<String> reasons = new ArrayList<>();
            boolean read = restoreFrom(l1, own, l1Chain, reasons);
            ownNewestRead = new L1Read(own, read, reasons, readNanos, readUnverified);
            level = read ? Level.L1 : null;
        }
        comm.idleBarrier(); // the ranks done first wait for the slowest one's read without taking its core
        return agreeOnOutcome(own, level);
    }

    /** Takes a restored version as the run's state: what it restored from, and the levels' bookkeeping. */
    private OptionalLong restored(long version, RestoreOutcome outcome) {
        if (outcome.fromUnverified()) {
            log.accept("rank " + comm.rank() + ": version " + version + " was written by a run no acceptance check"
                    + " has passed yet, and no verified version can be restored: the versions this run writes are"
                    + " unverified too");
        }
        setUnverified(outcome.fromUnverified());
        List<Level> used = outcome.levelsUsed();
        deepestRestored = used.getLast();
        slowestReadNanos = outcome.slowestReadNanos();
        restoredFrom = used.size() == 1 ? used.getFirst().name()
                : String.join(", ", used.subList(0, used.size() - 1).stream().map(Level::name).toList())
                        + " and " + used.getLast().name();
        l2.forgetNewerThan(version);
        if (l2.owesParity(version)) {
            drain.submitOnce("L2", version, l2::encodeOwedParity);
        }
        pfsRetention.restarted(version);
        checkpointer.restored();
        complete.clear();
        complete.addLast(version);
        l2Protected = -1; // its parity is written again in the background, if it was rebuilt
        return OptionalLong.of(version);
    }

    /**
     * Tries one version on every level in the policy's order; collective (every rank takes part in L2's steps, even
     * one that restored already). A node whose L1 lost the version (no manifest of it) starts its rebuild from L2
     * before the other ranks read L1, so the two overlap: the slowest rank's restore is the rebuild and its own read,
     * not everyone's L1 read, then the rebuild, then its read.
     *
     * @return the level this rank restored from, or null
     */
    private Level restoreAt(long version) {
        readNanos = 0;
        readUnverified = false;
        List<String> reasons = new ArrayList<>();
        // Before the rebuild, which writes the manifest on this node's leader (or began to, ahead of the set-up).
        boolean lostOnL1 = version == lostBeforeSetUp || !Files.exists(l1.manifestFile(version, comm.rank()));
        boolean withL2 = rebuildsFromL2(l2Rebuild);
        // L2's first step: a node whose L1 lost the version starts its rebuild while the other nodes read L1.
        boolean rebuilding = withL2 && rebuildFailedNodes(version, lostOnL1);
        boolean nodeRebuilt = rebuilding && lostOnL1;
        if (nodeRebuilt) {
            reasons.add(l1.manifestFile(version, comm.rank()) + ": missing");
        }
        Level restored = null;
        for (Level level : POLICY.levelOrder()) {
            boolean done = switch (level) {
                case L1 -> restored == null && !nodeRebuilt && readL1(version, reasons);
                case L2 -> withL2 && restoredAfterRebuilds(version, rebuilding, nodeRebuilt, restored == null,
                        reasons);
                case L3 -> restored == null && l3 != null && restoreFrom(l3, version, reasons);
            };
            if (done) {
                restored = level;
            }
        }
        if (restored == null) {
            log.accept("rank " + comm.rank() + ": cannot restore version " + version + ": "
                    + String.join("; ", reasons));
        } else if (restored != Level.L1) {
            log.accept("rank " + comm.rank() + ": restored version " + version + " from " + restored.name()
                    + " after: " + String.join("; ", reasons));
        }
        return restored;
    }

    /**
     * Restores {@code version} from this rank's L1, or takes the outcome of its read of that version before the ranks
     * agreed on one ({@link #readOwnNewestFromL1}), if no read has overwritten what that one restored since.
     */
    private boolean readL1(long version, List<String> reasons) {
        L1Read earlier = ownNewestRead;
        if (earlier == null || earlier.version() != version) {
            return restoreFrom(l1, version, reasons);
        }
        reasons.addAll(earlier.reasons());
        readNanos += earlier.nanos();
        readUnverified = earlier.unverified();
        return earlier.restored();
    }

    /**
     * A rank's read of one version from L1.
     *
     * @param restored   whether it succeeded
     * @param reasons    why not
     * @param nanos      its time reading and checking data files
     * @param unverified whether the version was written from unverified state
     */
    private record L1Read(long version, boolean restored, List<String> reasons, long nanos, boolean unverified) {
    }

    /**
     * L2's step of a restore, after L1's; collective. Waits for the rebuilds begun before L1's read (of nodes whose L1
     * lost the version) and reads the rebuilt nodes' files. A node whose L1 read failed although its manifest was
     * there (a damaged file) is rebuilt now, after everyone's read (the rebuild moves what is left of the version
     * aside first), and its ranks read again.
     *
     * @param rebuilding  whether rebuilds were begun before L1's read
     * @param nodeRebuilt whether this rank's node was among them
     * @param missing     whether this rank has not restored the version yet
     * @return whether this rank restored it now
     */
    private boolean restoredAfterRebuilds(long version, boolean rebuilding, boolean nodeRebuilt, boolean missing,
                                          List<String> reasons) {
        boolean restored = false;
        if (rebuilding) {
            comm.idleBarrier(); // every lost node's rebuild is done; the ranks that wait leave the cores to it
            restored = missing && nodeRebuilt && restoreFrom(l1, version, reasons);
        }
        boolean damaged = missing && !nodeRebuilt;
        if (rebuildFailedNodes(version, damaged)) {
            comm.idleBarrier(); // every damaged node's rebuild is done
            restored = restored || damaged && restoreFrom(l1, version, reasons);
        }
        return restored;
    }

    /**
     * Tells every rank which ranks failed; the leader of each node with a failed rank rebuilds the node's files of the
     * version from its set, if the policy says the set can (everyone else goes on); collective.
     *
     * @return whether some node was to be rebuilt
     */
    private boolean rebuildFailedNodes(long version, boolean failed) {
        List<Boolean> nodeFailed = l2.nodesThatFailed(failed);
        if (!nodeFailed.contains(true)) {
            return false;
        }
        String failure = l2.rebuildIfLost(version, nodeFailed, POLICY);
        if (failure != null) {
            log.accept("rank " + comm.rank() + ": " + failure);
        }
        return true;
    }

    /**
     * What every rank made of one version, in one all-reduce (a restore's collectives cost about a millisecond each
     * with more ranks than cores, against a read of a tenth of a second); collective.
     *
     * @param mine the level this rank restored from, or null
     */
    private RestoreOutcome agreeOnOutcome(long version, Level mine) {
        Level[] levels = Level.values();
        // All MAX: a rank that failed, one that read unverified, the slowest read, the newest and (negated) the
        // oldest version tried, then one cell per level.
        long[] cells = new long[5 + levels.length];
        cells[0] = mine == null ? 1 : 0;
        cells[1] = mine != null && readUnverified ? 1 : 0;
        cells[2] = readNanos;
        cells[3] = version;
        cells[4] = -version;
        if (mine != null) {
            cells[5 + mine.ordinal()] = 1;
        }
        comm.allreduce(cells, 0, cells, 0, cells.length, ReduceOp.MAX);
        List<Level> used = new ArrayList<>();
        for (Level level : levels) {
            if (cells[5 + level.ordinal()] == 1) {
                used.add(level);
            }
        }
        return new RestoreOutcome(cells[0] == 0, cells[1] == 1, used, cells[2], cells[3], cells[3] == -cells[4]);
    }

    /**
     * @param everyRankRestored whether every rank restored the version
     * @param fromUnverified    whether some rank's copy was written by a run no acceptance check has passed
     * @param levelsUsed        the levels the ranks restored from, in {@link Level} order, so the last is the deepest
     *                          (the one that bounds the restore's time)
     * @param slowestReadNanos  the longest any rank spent reading and checking data files
     * @param newestVersion     the newest version any rank tried (-1: no rank had one)
     * @param sameVersionEverywhere whether every rank tried the same version
     */
    private record RestoreOutcome(boolean everyRankRestored, boolean fromUnverified, List<Level> levelsUsed,
                                  long slowestReadNanos, long newestVersion, boolean sameVersionEverywhere) {
    }

    /**
     * @return where the last {@link #restart()} restored from: "L1", "L2" (L1 rebuilt from the XOR set), "L3", or
     *         the levels joined, "L1 and L2", when ranks differed (a node's RAM disk lost); empty before any restore
     */
    public String restoredFrom() {
        return restoredFrom;
    }

    /**
     * @return the deepest level the last {@link #restart()} restored from on any rank (L2: L1 files rebuilt from the
     *         XOR set), or empty when it restored nothing
     */
    public Optional<Level> restoredLevel() {
        return Optional.ofNullable(deepestRestored);
    }

    /**
     * @return the longest any rank spent reading and checking the data files of the version the last
     *         {@link #restart()} restored (every level it tried for that version included); zero before any restore.
     *         The rest of a restart is finding the version and the ranks' agreement on it.
     */
    public Duration restoreReadTime() {
        return Duration.ofNanos(deepestRestored == null ? 0 : slowestReadNanos);
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

    /**
     * @return the newest version this rank keeps on L1 whose L2 parity its node has written, or -1 (none, or no L2);
     *         every rank of a node answers the same
     */
    private long newestWithParity() {
        if (!l2.enabled()) {
            return -1;
        }
        long newest = -1;
        try {
            // Every version still on L1, not only the kept ones: the one whose drain (and parity) just finished may
            // have left the newest kept ones already.
            for (long version : l1.versions()) {
                if (version > newest && Files.exists(l1.manifestFile(version, comm.rank()))
                        && Files.exists(ParityFiles.manifest(l1, version))) {
                    newest = version;
                }
            }
        } catch (IOException e) {
            log.accept("rank " + comm.rank() + ": cannot list " + l1.root() + ": " + e.getMessage());
        }
        return newest;
    }

    /**
     * @return the oldest and newest version this rank's drain may still be handing to its node daemon, on a leader
     *         whose daemon drains its node's ranks to L3; else {@link Long#MAX_VALUE} and -1 (which negate safely)
     */
    private long[] leaderDraining() {
        List<Long> versions = l3Drain.byNodeDaemon() ? drain.inFlight() : List.of();
        return versions.isEmpty() ? new long[] {Long.MAX_VALUE, -1}
                : new long[] {versions.stream().mapToLong(Long::longValue).min().orElseThrow(),
                        versions.stream().mapToLong(Long::longValue).max().orElseThrow()};
    }

    private void prune() {
        try {
            // The version draining (with its chain) stays on L1 until copied, even once newer ones are kept; so does
            // the newest one every node has parity of, until a newer one has it: while a node's parity lags (it is
            // written in the background), a lost node can still be rebuilt from L2.
            List<Long> keep = new ArrayList<>(complete);
            keep.addAll(drain.inFlight());
            keep.addAll(daemonDraining); // the node daemon may be reading this rank's files for its leader
            keep.addAll(preservedL1);
            if (l2Protected >= 0) {
                keep.add(l2Protected);
            }
            // The checkpointer knows the chains it wrote: only versions it did not write have manifests read.
            Retention.prune(l1, comm.rank(), keep, checkpointer::parentOf);
        } catch (IOException e) {
            log.accept("rank " + comm.rank() + ": pruning L1 failed: " + e.getMessage());
        }
        l2.pruneOlderThan(complete.getFirst());
    }

    private void drained(DrainResult result) {
        if (result.ok() && result.level().equals(Level.L3.name())) {
            pfsRetention.drained(result.version());
        }
        if (result.level().equals(Level.L3.name())) {
            if (result.ok()) {
                incidents.roomOn(LevelIncidents.L3);
            } else if (LevelIncidents.noRoom(result.error())) {
                incidents.full(LevelIncidents.L3, result.version());
            }
        }
        (result.ok() ? levelFailures.reached(result.level(), result.version())
                : levelFailures.failed(result.level(), result.version(), result.error()))
                .ifPresent(line -> log.accept("rank " + comm.rank() + ": " + line));
    }

    /**
     * Restores this rank's regions from one level.
     *
     * @param reasons receives why it failed
     * @return whether it succeeded
     */
    private boolean restoreFrom(CheckpointDirectory level, long version, List<String> reasons) {
        return restoreFrom(level, version, null, reasons);
    }

    /**
     * @param chain the version's chain on the level, read and checked before, or null: read it now
     */
    private boolean restoreFrom(CheckpointDirectory level, long version, List<RankManifest> chain,
                                List<String> reasons) {
        ownNewestRead = null; // this read overwrites what that one restored
        try {
            // L3's data files were written with O_DIRECT: read so too, they are not in the page cache.
            DataFileReader.Access access = level == l3 && settings.pfsDirect() ? DataFileReader.Access.DIRECT
                    : DataFileReader.Access.CACHED;
            long start = System.nanoTime();
            try {
                List<RankManifest> applied = chain != null
                        ? ChainRestorer.restore(level, chain, comm.rank(), checkpointer.regions(), access)
                        : ChainRestorer.restore(level, version, comm.rank(), comm.size(), checkpointer.regions(),
                                access);
                readUnverified = applied.getLast().unverified();
            } finally {
                readNanos += System.nanoTime() - start;
            }
            return true;
        } catch (CorruptCheckpointException e) {
            reasons.add(e.getMessage());
            if (Files.exists(level.manifestFile(version, comm.rank()))) {
                // Without its manifest the version is lost here, not corrupt (a wiped RAM disk, a new node).
                incidents.corrupt(level == l1 ? LevelIncidents.L1 : LevelIncidents.L3, version);
            }
        } catch (IOException e) {
            reasons.add(level.root() + ": " + e);
        }
        return false;
    }

    /**
     * Says that this run resumed from state no acceptance check has passed (an NVM restart): the versions it writes
     * are marked unverified, and this rank's verified versions on every level are kept, whatever newer versions
     * complete, until the run ends (recovery invariant 2).
     */
    public void markUnverified() {
        setUnverified(true);
    }

    private void setUnverified(boolean value) {
        unverified = value;
        checkpointer.writeUnverified(value);
        preservedL1 = value ? verifiedVersions(l1) : Set.of();
        pfsRetention.preserve(value && l3 != null ? verifiedVersions(l3) : Set.of());
    }

    /**
     * @return the versions complete on L1 that this rank holds there (its manifest present), oldest first, with its
     *         bytes of each, whether it was written from verified state and whether its node's L2 parity of it is
     *         written: what the coordinator needs to weigh L1 and L2 when it cannot read the node's RAM disk (the
     *         heartbeat carries it)
     */
    public List<HeartbeatFile.Held> heldOnL1() {
        Set<Long> versions = new TreeSet<>(complete);
        versions.addAll(preservedL1);
        if (l2Protected >= 0) {
            versions.add(l2Protected);
        }
        // A version a restore found corrupt is not offered again.
        versions.removeIf(v -> !Files.exists(l1.manifestFile(v, comm.rank())) || incidents.corruptOnL1(v));
        held.keySet().retainAll(versions);
        List<HeartbeatFile.Held> list = new ArrayList<>();
        for (long version : versions) {
            // Bytes and verification are fixed once written; the parity comes later, from the drain thread.
            list.add(held.computeIfAbsent(version, v -> new HeartbeatFile.Held(v, size(l1.manifestFile(v, comm.rank()))
                    + size(l1.dataFile(v, comm.rank())), !search.unverified(l1, v), false))
                    .withL2Parity(l2.enabled() && Files.exists(ParityFiles.manifest(l1, version))));
        }
        return list;
    }

    /** @return the newest level found full and version found corrupt, for the heartbeat */
    public HeartbeatFile.Incidents incidents() {
        return incidents.newest();
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    /** @return the versions of which this rank holds a verified manifest on {@code level} */
    private Set<Long> verifiedVersions(CheckpointDirectory level) {
        Set<Long> verified = new HashSet<>();
        try {
            for (long version : level.versions()) {
                if (Files.exists(level.manifestFile(version, comm.rank())) && !search.unverified(level, version)) {
                    verified.add(version);
                }
            }
        } catch (IOException e) {
            log.accept("rank " + comm.rank() + ": cannot list " + level.root() + ": " + e.getMessage());
        }
        return verified;
    }

    /**
     * After the acceptance check rejected this run's result: deletes this rank's files of every version written from
     * unverified state, on every level, so that no later restore can pick them, and stops marking versions
     * unverified. The next {@link #restart()} goes to the newest verified version. Collective.
     */
    public void discardUnverified() throws IOException {
        plan = null; // it may name a version deleted here
        awaitEveryDrain();
        for (CheckpointDirectory level : levels()) {
            for (long version : level.versions()) {
                if (Files.exists(level.manifestFile(version, comm.rank())) && search.unverified(level, version)) {
                    Retention.deleteRankFiles(level, comm.rank(), version);
                }
            }
        }
        setUnverified(false);
        complete.clear();
        l2Protected = -1;
        comm.barrier();
    }

    /**
     * Waits until this rank's drain and every other rank's have finished; collective. A node daemon may be writing
     * this rank's L3 files on its leader's behalf until the leader's drain ends.
     */
    private void awaitEveryDrain() {
        awaitOwnDrain();
        comm.idleBarrier();
    }

    /** Waits until this rank's queued drain has finished; an interrupt ends the wait and is kept. */
    private void awaitOwnDrain() {
        try {
            drain.awaitIdle();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private List<CheckpointDirectory> levels() {
        return l3 == null ? List.of(l1) : List.of(l1, l3);
    }

    /**
     * Deletes this rank's files of every version on every level, and its spare L1 data file, after a finished run: the
     * next run of the job starts fresh, as it does after EasyCrash releases the heap. Waits for every rank's drain
     * first; collective.
     */
    public void release() throws IOException {
        awaitEveryDrain();
        for (CheckpointDirectory level : levels()) {
            Retention.prune(level, comm.rank(), List.of());
        }
        Files.deleteIfExists(l1.spareDataFile(comm.rank())); // what pruning L1 just kept for a next version
        l2.release();
        complete.clear();
    }

    /** Finishes the queued drain, then stops the drain thread and the page tracking. */
    @Override
    public void close() {
        awaitOwnDrain();
        drainRunner.close();
        l3Drain.close();
        l2.close();
        comm.removeReceiveHook(hook);
        checkpointer.close();
        scanner.close();
    }
}
