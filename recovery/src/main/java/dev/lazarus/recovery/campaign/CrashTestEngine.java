package dev.lazarus.recovery.campaign;

import dev.lazarus.easycrash.DataObject;
import dev.lazarus.easycrash.EasyCrash;
import dev.lazarus.easycrash.ObjectRole;
import dev.lazarus.easycrash.PersistencePlan;
import dev.lazarus.easycrash.Recomputable;
import dev.lazarus.easycrash.trace.AccessTracer;
import dev.lazarus.easycrash.trace.Tracing;
import dev.lazarus.mpi.local.SingleRankComm;
import dev.lazarus.recovery.crash.CacheConfig;
import dev.lazarus.recovery.crash.CacheModel;
import dev.lazarus.recovery.crash.CrashPoints;
import dev.lazarus.recovery.crash.CrashSnapshot;
import dev.lazarus.recovery.crash.InconsistencyReport;
import dev.lazarus.recovery.crash.ObjectRange;
import dev.lazarus.recovery.crash.SnapshottingTracer;
import dev.lazarus.recovery.selection.CrashTestOutcome;
import dev.lazarus.recovery.selection.CrashTestResult;
import dev.lazarus.store.files.SecureFiles;
import dev.lazarus.verification.Verdict;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * Runs one crash-test campaign phase (paper §4.1) for a {@link CampaignTarget} under a persistence plan:
 * <ol>
 *   <li>a counting run finds the main loop's accesses and each region's share of them;</li>
 *   <li>crash points are drawn uniformly among the main loop's accesses;</li>
 *   <li>one run traced through the {@link CacheModel} snapshots the NVM image at every crash point (a deterministic
 *       run is identical up to each point, so this equals one run per test);</li>
 *   <li>each snapshot is restarted on a worker thread ({@link RestartTest}) while the traced run goes on; a bounded
 *       number of snapshots is held at once.</li>
 * </ol>
 */
public final class CrashTestEngine {

    /**
     * @param workDir   scratch directory (heaps live here; /dev/shm keeps it fast)
     * @param cache     the cache hierarchy to model
     * @param threads   restart workers
     * @param testLimit time limit of one restart (an interruption, S3, past it)
     */
    public record Options(Path workDir, CacheConfig cache, int threads, Duration testLimit) {
    }

    /**
     * @param results      one per crash test, in crash-point order
     * @param regions      the application's code regions
     * @param regionShares each region's share of the main loop (a_k)
     * @param candidates   the candidate objects' names and sizes in bytes
     * @param accesses     traced accesses of one crash-free run
     * @param iterations   main-loop iterations of one crash-free run
     */
    public record PhaseResult(List<CrashTestResult> results, List<String> regions, double[] regionShares,
                              Map<String, Long> candidates, long accesses, int iterations) {
    }

    private final Options options;

    public CrashTestEngine(Options options) {
        if (!Tracing.ENABLED) {
            throw new IllegalStateException("crash-test campaigns need a JVM started with -D" + Tracing.PROPERTY
                    + "=true (./lazarus campaign does this)");
        }
        this.options = options;
    }

    /**
     * Runs {@code tests} crash tests of {@code target} with {@code plan} (or none).
     *
     * @param progress told the number of finished tests as they finish
     */
    public PhaseResult run(CampaignTarget target, PersistencePlan plan, int tests, long seed, IntConsumer progress)
            throws IOException, InterruptedException {
        Path phaseDir = Files.createTempDirectory(options.workDir(), "phase");
        try {
            Path planFile = null;
            if (plan != null) {
                planFile = phaseDir.resolve("plan.properties");
                plan.write(planFile, "campaign phase");
            }
            RegionProfile profile = new RegionProfile(target.prepare(new SingleRankComm()).regions().size());
            Map<String, Long> candidates = new java.util.TreeMap<>();
            tracedRun(target, phaseDir.resolve("profile"), planFile, profile,
                    ec -> candidateRanges(ec).forEach(r -> candidates.put(r.name(), r.length())));
            CrashPoints points = CrashPoints.uniform(profile.mainLoopStart(), profile.mainLoopEnd(), tests, seed);
            List<CrashTestResult> results = crashAndRestart(target, phaseDir, planFile, points, progress);
            List<String> regions = target.prepare(new SingleRankComm()).regions();
            return new PhaseResult(results, regions, profile.shares(), candidates, profile.accesses(),
                    profile.iterations());
        } finally {
            SecureFiles.deleteTree(phaseDir);
        }
    }

    private List<CrashTestResult> crashAndRestart(CampaignTarget target, Path phaseDir, Path planFile,
                                                  CrashPoints points, IntConsumer progress)
            throws IOException, InterruptedException {
        List<CrashTestResult> results = Collections.synchronizedList(new ArrayList<>());
        Semaphore inFlight = new Semaphore(2 * options.threads());
        AtomicInteger finished = new AtomicInteger();
        ExecutorService workers = Executors.newFixedThreadPool(options.threads());
        Path objectsTemplate = phaseDir.resolve("objects.template");
        RestartTest restart = new RestartTest(target, objectsTemplate, options.testLimit().toNanos());
        LateBoundTracer tracer = new LateBoundTracer();
        try {
            tracedRun(target, phaseDir.resolve("golden"), planFile, tracer, ec -> {
                List<ObjectRange> ranges = candidateRanges(ec);
                copy(ec, objectsTemplate);
                CacheModel model = new CacheModel(options.cache(), ec.heap().segment());
                tracer.bind(new SnapshottingTracer(model, points, ranges, 0, -1, snapshot -> {
                    inFlight.acquireUninterruptibly();
                    workers.submit(() -> {
                        try {
                            CrashTestOutcome outcome = restart.run(snapshot, phaseDir);
                            results.add(new CrashTestResult(snapshot.region(), rates(snapshot), outcome));
                        } catch (IOException | RuntimeException e) {
                            restart.lastInterruption = "crash test could not run: " + e;
                            results.add(new CrashTestResult(snapshot.region(), rates(snapshot), CrashTestOutcome.S3));
                        } finally {
                            inFlight.release();
                            progress.accept(finished.incrementAndGet());
                        }
                    });
                }));
            });
        } finally {
            workers.shutdown();
            workers.awaitTermination(1, TimeUnit.HOURS);
        }
        if (!restart.lastInterruption.isEmpty()) {
            System.err.println("lazarus campaign: last interruption (S3): " + restart.lastInterruption);
        }
        return List.copyOf(results);
    }

    /** A fresh, crash-free run traced by {@code tracer}; {@code afterAttach} sees the heap with every object. */
    private static void tracedRun(CampaignTarget target, Path nvm, Path planFile, AccessTracer tracer,
                                  Consumer<EasyCrash> afterAttach) throws IOException {
        SingleRankComm comm = new SingleRankComm();
        Recomputable app = target.prepare(comm);
        try (EasyCrash easyCrash = EasyCrash.start(comm, app.application(), app.signature(), app.regions(),
                app.heapBytes(), CampaignTarget.settings(nvm, planFile, false), tracer, null)) {
            app.attach(easyCrash);
            easyCrash.checkPlan(app.application());
            afterAttach.accept(easyCrash);
            app.initialize(true);
            easyCrash.persistStartingState(); // as RecomputingRun does
            for (int it = 1; it <= app.iterations(); it++) {
                easyCrash.beginIteration(it);
                app.iterate(it, easyCrash);
            }
            Verdict verdict = app.verify();
            if (!verdict.accepted()) {
                throw new IllegalStateException("the crash-free run of " + target.name()
                        + " fails its verification, so no crash test can be judged: " + verdict.reason());
            }
            easyCrash.release();
        }
    }

    private static List<ObjectRange> candidateRanges(EasyCrash easyCrash) {
        List<ObjectRange> ranges = new ArrayList<>();
        for (DataObject object : easyCrash.heap().objects().values()) {
            if (object.role() == ObjectRole.CANDIDATE) {
                ranges.add(new ObjectRange(object.name(), object.heapOffset(), object.byteSize()));
            }
        }
        ranges.sort(java.util.Comparator.comparing(ObjectRange::name));
        return ranges;
    }

    private static Map<String, Double> rates(CrashSnapshot snapshot) {
        InconsistencyReport report = snapshot.inconsistency();
        Map<String, Double> rates = new HashMap<>();
        for (int i = 0; i < report.objects().size(); i++) {
            rates.put(report.objects().get(i).name(), report.rate(i));
        }
        return rates;
    }

    private static void copy(EasyCrash easyCrash, Path objectsTemplate) {
        try {
            Path heapFile = easyCrash.heap().heapFile();
            Files.copy(heapFile.resolveSibling("rank-0.objects"), objectsTemplate);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
