package dev.lazarus.easycrash;

import dev.lazarus.easycrash.heap.HeapLayout;
import dev.lazarus.easycrash.heap.NvmDirectoryFullException;
import dev.lazarus.easycrash.heap.ObjectDescriptor;
import dev.lazarus.easycrash.heap.RankLock;
import dev.lazarus.easycrash.trace.AccessTracer;
import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.recovery.policy.FixedOrderPolicy;
import dev.lazarus.recovery.policy.NvmFacts;
import dev.lazarus.recovery.policy.StartDecision;
import dev.lazarus.store.files.UnsafePathException;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The EasyCrash runtime of one rank (the paper's {@code easycrash_mem_alloc} and {@code easycrash()}). An application
 * attaches its data objects through it, marks the start of every main-loop iteration and the end of every code
 * region, and it persists the plan's critical objects where the plan says.
 *
 * <p>{@link #start} makes every rank agree on one recovery decision: resume all ranks at one bookmarked iteration, or
 * (if any rank's NVM state is unusable or missing) roll every rank back to a fresh start. Bookmarks that differ across
 * ranks resume at the smallest, and the reason says so.
 */
public final class EasyCrash implements AutoCloseable {
    private static final int REASON_BYTES = 512;

    private final Comm comm;
    /** The rank's persistent heap, or {@code null} with EasyCrash off ({@link #plain}). */
    private final PersistentHeap heap;
    /** Every attached object, in the heap or a plain array, by name in attach order. */
    private final Map<String, DataObject> attached = new LinkedHashMap<>();
    private final RecoveryState recovery;
    private final PersistencePlan plan;
    private final List<String> regions;
    private final int[] regionEnds;
    private final AccessTracer tracer;
    private List<DataObject> critical;

    private EasyCrash(Comm comm, PersistentHeap heap, RecoveryState recovery, PersistencePlan plan,
                      List<String> regions, AccessTracer tracer) {
        this.comm = comm;
        this.heap = heap;
        this.recovery = recovery;
        this.plan = plan;
        this.regions = List.copyOf(regions);
        this.regionEnds = new int[regions.size()];
        this.tracer = tracer;
    }

    /**
     * Attaches this rank's heap and agrees with the other ranks on how to start.
     *
     * @param comm        the world communicator (collective: every rank calls this)
     * @param application the application's name, e.g. {@code npb.CG}
     * @param signature   the application and the arguments that shape its data; a heap left by another signature is
     *                    not reused
     * @param regions     the main loop's code regions, in order
     * @param heapBytes   bytes the application's objects need (page rounding included)
     * @param settings    where NVM is, the job id, the plan
     * @param tracer      the crash emulator's tracer, or {@code null} outside campaigns
     * @param log         where rank 0 reports the recovery decision
     * @throws IllegalArgumentException for bad settings or a plan that does not match the application; and on every
     *                                  rank, with the lowest such rank's one line, when a rank's NVM state is in use
     *                                  by a live earlier rank, lies behind a link or another user's directory, or
     *                                  its new heap does not fit in the NVM directory
     */
    public static EasyCrash start(Comm comm, String application, String signature, List<String> regions,
                                  long heapBytes, EasyCrashSettings settings, AccessTracer tracer, PrintStream log)
            throws IOException {
        settings.conclude(application, HeapLayout.DATA_OFFSET + heapBytes); // the header page comes first
        PersistencePlan plan = settings.planFile().map(PersistencePlan::read)
                .orElse(PersistencePlan.none(application, regions));
        PersistentHeap.Config config = new PersistentHeap.Config(settings.nvmDirectory(), settings.jobId(),
                comm.rank(), comm.size(), settings.heapSize(), signature, tracer);
        PersistentHeap heap = null;
        String refused = null;
        try {
            heap = settings.restart() ? PersistentHeap.open(config)
                    : PersistentHeap.openFresh(config, RecoveryState.fresh(settings.restartOffReason()));
        } catch (RankLock.NvmStateInUseException | UnsafePathException | NvmDirectoryFullException e) {
            refused = e.getMessage();
        }
        // Every rank must leave the same way: a rank whose state is held by a live earlier rank, lies behind a link
        // or another user's directory, or does not fit stops them all, rather than leave them in the next collective.
        if (comm.allreduce(refused == null ? 0L : 1L, ReduceOp.MAX) != 0) {
            if (heap != null) {
                heap.close();
            }
            throw new IllegalArgumentException(firstReason(comm, refused));
        }
        RecoveryState agreed = agree(comm, heap.recovery());
        if (heap.recovery().kind() == RecoveryState.Kind.RESUMABLE && agreed.kind() != RecoveryState.Kind.RESUMABLE) {
            heap.close();
            heap = PersistentHeap.openFresh(config, agreed);
        }
        if (agreed.kind() == RecoveryState.Kind.RESUMABLE) {
            heap.beginAttempt(agreed.iteration()); // recovery invariant 3: a failed attempt is never repeated
        }
        if (comm.rank() == 0 && log != null) {
            log.println("lazarus: " + describe(agreed) + " (persistence: " + heap.persistenceMechanism() + ")");
        }
        EasyCrash runtime = new EasyCrash(comm, heap, agreed, plan, regions, tracer);
        return runtime;
    }

    /**
     * A runtime with EasyCrash off: the application's objects are plain Java arrays, iterations are not bookmarked,
     * nothing is persisted and nothing is kept across a crash. It runs the application as the plain program runs, so
     * that Lazarus's overheads can be measured against it.
     */
    public static EasyCrash plain(Comm comm, String application, List<String> regions, PrintStream log) {
        if (comm.rank() == 0 && log != null) {
            log.println("lazarus: EasyCrash off: the objects are plain Java arrays (no NVM heap, no restart)");
        }
        return new EasyCrash(comm, null, RecoveryState.fresh("EasyCrash off"), PersistencePlan.none(application,
                regions), regions, null);
    }

    /** Whether this runtime runs on plain Java arrays (EasyCrash off). */
    public boolean plainArrays() {
        return heap == null;
    }

    static String describe(RecoveryState state) {
        return switch (state.kind()) {
            case FRESH -> "NVM start: fresh (" + state.reason() + ")";
            case RESUMABLE -> "NVM restart: resuming at iteration " + state.iteration() + " (" + state.reason() + ")";
            case UNUSABLE -> "NVM state unusable -> rollback: " + state.reason();
        };
    }

    /** One decision for all ranks; see the class comment. */
    /**
     * Gathers what every rank found in NVM (collective) and asks the recovery policy how to start.
     */
    private static RecoveryState agree(Comm comm, RecoveryState mine) {
        long[] kinds = new long[3];
        kinds[mine.kind().ordinal()] = 1;
        comm.allreduce(kinds, 0, kinds, 0, 3, ReduceOp.MAX);
        boolean anyUnusable = kinds[RecoveryState.Kind.UNUSABLE.ordinal()] == 1;
        boolean anyFresh = kinds[RecoveryState.Kind.FRESH.ordinal()] == 1;
        boolean anyResumable = kinds[RecoveryState.Kind.RESUMABLE.ordinal()] == 1;
        String firstUnusable = anyUnusable
                ? firstReason(comm, mine.kind() == RecoveryState.Kind.UNUSABLE ? mine.reason() : null) : null;
        long low = 0;
        long high = 0;
        if (!anyUnusable && !anyFresh) { // bookmarks matter only when every rank has one
            low = comm.allreduce((long) mine.iteration(), ReduceOp.MIN);
            high = comm.allreduce((long) mine.iteration(), ReduceOp.MAX);
        }
        StartDecision decision = FixedOrderPolicy.INSTANCE.start(new NvmFacts(anyUnusable, firstUnusable, anyFresh,
                anyResumable, mine.reason(), (int) low, (int) high));
        return switch (decision.path()) {
            case RESUME_FROM_NVM -> new RecoveryState(RecoveryState.Kind.RESUMABLE, decision.iteration(),
                    decision.reason());
            case START_FRESH -> RecoveryState.fresh(decision.reason());
            case ROLL_BACK -> RecoveryState.unusable(decision.reason());
        };
    }

    /**
     * "rank r: reason" of the lowest rank that has a reason (collective; at least one rank must have one).
     *
     * @param mine this rank's reason, or {@code null}
     */
    static String firstReason(Comm comm, String mine) {
        long first = comm.allreduce(mine != null ? comm.rank() : Long.MAX_VALUE, ReduceOp.MIN);
        return "rank " + first + ": " + broadcast(comm, mine, (int) first);
    }

    private static String broadcast(Comm comm, String text, int root) {
        byte[] buffer = new byte[REASON_BYTES];
        if (comm.rank() == root) {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            System.arraycopy(bytes, 0, buffer, 0, Math.min(bytes.length, REASON_BYTES));
        }
        comm.bcast(buffer, 0, REASON_BYTES, root);
        int length = 0;
        while (length < REASON_BYTES && buffer[length] != 0) {
            length++;
        }
        return new String(buffer, 0, length, StandardCharsets.UTF_8);
    }

    /** A fresh runtime for a rollback: this rank's NVM state is set aside (collective). */
    static EasyCrash restartFresh(Comm comm, Recomputable app, EasyCrashSettings settings, AccessTracer tracer)
            throws IOException {
        PersistencePlan plan = settings.planFile().map(PersistencePlan::read)
                .orElse(PersistencePlan.none(app.application(), app.regions()));
        PersistentHeap.Config config = new PersistentHeap.Config(settings.nvmDirectory(), settings.jobId(),
                comm.rank(), comm.size(), settings.heapSize(), app.signature(), tracer);
        RecoveryState state = RecoveryState.unusable("the NVM restart failed acceptance verification");
        return new EasyCrash(comm, PersistentHeap.openFresh(config, state), state, plan, app.regions(), tracer);
    }

    /**
     * Records durably that this NVM restart failed with {@code failure}, so that the next launch rolls back instead of
     * resuming the same state (recovery invariant 3). Does nothing on a run that did not resume from NVM.
     *
     * @return one line describing the failure and where it was thrown
     */
    public String recordFailedAttempt(Throwable failure) throws IOException {
        String where = failure.getStackTrace().length == 0 ? "" : " at " + failure.getStackTrace()[0];
        String line = failure + where;
        if (resuming()) {
            heap.failAttempt(recovery.iteration(), line);
        }
        return line;
    }

    /** Releases this rank's NVM state after a finished run: the next run of the job starts fresh. */
    public void release() throws IOException {
        if (heap != null) {
            heap.release();
        }
    }

    /** The decision every rank agreed on. */
    public RecoveryState recovery() {
        return recovery;
    }

    /** Whether the job resumes from NVM (else it starts from the beginning). */
    public boolean resuming() {
        return recovery.kind() == RecoveryState.Kind.RESUMABLE;
    }

    /** The iteration to resume at, or {@code first} on a fresh start. */
    public int firstIteration(int first) {
        return resuming() ? recovery.iteration() : first;
    }

    /** A candidate {@code double} object called {@code name}: see {@link #doubles(String, int, ObjectRole)}. */
    public DoubleArray doubles(String name, int length) {
        return doubles(name, length, ObjectRole.CANDIDATE);
    }

    /**
     * A {@code double} object called {@code name}: in the persistent heap, as NVM kept it on a restart, else zeros; a
     * {@link ObjectRole#TEMPORARY temporary} or {@link ObjectRole#READ_ONLY read-only} object outside campaigns, and
     * every object with EasyCrash off, is a plain Java array of zeros instead.
     */
    public DoubleArray doubles(String name, int length, ObjectRole role) {
        return attach(inHeap(role) ? heap.doubles(name, length, role) : DoubleArray.plain(name, length, role));
    }

    /** A {@code long} object called {@code name}, as {@link #doubles(String, int, ObjectRole)}. */
    public LongArray longs(String name, int length, ObjectRole role) {
        return attach(inHeap(role) ? heap.longs(name, length, role) : LongArray.plain(name, length, role));
    }

    /** An {@code int} object called {@code name}, as {@link #doubles(String, int, ObjectRole)}. */
    public IntArray ints(String name, int length, ObjectRole role) {
        return attach(inHeap(role) ? heap.ints(name, length, role) : IntArray.plain(name, length, role));
    }

    /**
     * Whether an object of {@code role} goes into the persistent heap: a candidate or re-initialized one, not a
     * temporary one (every iteration writes it before reading it) or a read-only one (initialization rebuilds it
     * after every start and the main loop never writes it), which NVM would keep for nothing ({@link ObjectRole} says
     * what the plain array gains). A campaign's trace run keeps every object in the heap: its cache model must see
     * every object's traffic.
     */
    private boolean inHeap(ObjectRole role) {
        return heap != null && (role.inHeapOutsideCampaigns() || tracer != null);
    }

    private <T extends DataObject> T attach(T object) {
        ObjectDescriptor.checkName(object.name());
        if (attached.putIfAbsent(object.name(), object) != null) {
            throw new IllegalArgumentException("object " + object.name() + " is already attached");
        }
        return object;
    }

    /** The attached objects by name, in attach order. */
    public Map<String, DataObject> objects() {
        return Collections.unmodifiableMap(attached);
    }

    /**
     * Writes back every candidate object once, after a start that did not resume from NVM has initialized them (a
     * fresh start, or a restore from a checkpoint level): a restart finds that state in NVM even where the main loop
     * never writes it again. Objects that initialization writes and the loop only reads (IS's keys) could otherwise
     * stay in the cache for the whole run and be lost to a crash; the crash-test campaign's cache model saw exactly
     * that (every IS crash test failed once IS stopped moving its keys through the cache every iteration). Nothing
     * with EasyCrash off. Call before the first {@link #beginIteration}.
     */
    public void persistStartingState() {
        if (heap == null) {
            return;
        }
        List<DataObject> candidates = new ArrayList<>();
        for (DataObject object : objects().values()) {
            if (object.role() == ObjectRole.CANDIDATE) {
                candidates.add(object);
            }
        }
        heap.persistBeforeFirstBookmark(candidates);
    }

    /** Marks the start of main-loop iteration {@code iteration}: the bookmark a restart resumes at. */
    public void beginIteration(int iteration) {
        if (heap != null) {
            heap.bookmark(iteration);
        }
        if (tracer != null) {
            tracer.iterationBegin(iteration);
        }
    }

    /**
     * Marks the end of code region {@code region} of the current iteration; persists the plan's critical objects if
     * this is the plan's n-th end of the region.
     */
    public void endRegion(int region, int iteration) {
        int ends = ++regionEnds[region];
        int every = plan.every(region);
        if (every > 0 && ends % every == 0) { // never with EasyCrash off: its plan is none
            heap.persist(region, criticalObjects());
        }
        if (tracer != null) {
            tracer.regionEnd(region, iteration);
        }
    }

    private List<DataObject> criticalObjects() {
        if (critical == null) {
            List<DataObject> found = new ArrayList<>();
            for (String name : plan.critical()) {
                DataObject object = objects().get(name);
                if (object == null) {
                    throw new IllegalArgumentException("plan names critical object '" + name + "', which "
                            + plan.application() + " has not attached " + objects().keySet());
                }
                found.add(object);
            }
            critical = List.copyOf(found);
        }
        return critical;
    }

    /**
     * Checks the plan against the application's candidate objects; call once every object is attached.
     *
     * @throws IllegalArgumentException one line naming the mismatch
     */
    public void checkPlan(String application) {
        List<String> candidates = objects().values().stream()
                .filter(o -> o.role() == ObjectRole.CANDIDATE).map(DataObject::name).sorted().toList();
        plan.checkMatches(application, regions, candidates);
        criticalObjects();
    }

    public PersistencePlan plan() {
        return plan;
    }

    public List<String> regions() {
        return regions;
    }

    /** How many times each region has ended so far (for region-time accounting and reports). */
    public int[] regionEnds() {
        return Arrays.copyOf(regionEnds, regionEnds.length);
    }

    /** The persistent heap, or {@code null} with EasyCrash off. */
    public PersistentHeap heap() {
        return heap;
    }

    public Comm comm() {
        return comm;
    }

    @Override
    public void close() {
        if (heap != null) {
            heap.close();
        }
    }
}
