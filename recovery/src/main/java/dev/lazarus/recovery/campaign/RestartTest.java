package dev.lazarus.recovery.campaign;

import dev.lazarus.easycrash.DataObject;
import dev.lazarus.easycrash.DoubleArray;
import dev.lazarus.easycrash.EasyCrash;
import dev.lazarus.easycrash.EasyCrashSettings;
import dev.lazarus.easycrash.ObjectRole;
import dev.lazarus.easycrash.Recomputable;
import dev.lazarus.mpi.local.SingleRankComm;
import dev.lazarus.recovery.crash.CrashSnapshot;
import dev.lazarus.recovery.selection.CrashTestOutcome;
import dev.lazarus.store.files.SecureFiles;
import dev.lazarus.verification.Verdict;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One crash test's second half: the NVM image becomes the heap file of a fresh single-rank job, which resumes at the
 * bookmarked iteration, runs to completion and is verified (paper §4.2):
 * <ul>
 *   <li>S1: verified after the normal number of iterations;</li>
 *   <li>S2: verified after extra iterations (up to {@link Recomputable#maxIterations()});</li>
 *   <li>S3: an exception, NaN in a candidate object, unusable NVM state, or the time limit;</li>
 *   <li>S4: still rejected at the end.</li>
 * </ul>
 */
final class RestartTest {
    private final CampaignTarget target;
    private final Path objectsTemplate;
    private final long deadlineNanos;

    RestartTest(CampaignTarget target, Path objectsTemplate, long limitNanos) {
        this.target = target;
        this.objectsTemplate = objectsTemplate;
        this.deadlineNanos = limitNanos;
    }

    /** Restarts from {@code snapshot} in a private directory under {@code workDir}, which it removes again. */
    CrashTestOutcome run(CrashSnapshot snapshot, Path workDir) throws IOException {
        Path nvm = Files.createTempDirectory(workDir, "test");
        try {
            Path job = Files.createDirectories(nvm.resolve(CampaignTarget.JOB));
            try (var channel = java.nio.channels.FileChannel.open(job.resolve("rank-0.heap"),
                    StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                channel.write(snapshot.nvmImage().asByteBuffer());
            }
            Files.copy(objectsTemplate, job.resolve("rank-0.objects"));
            return resume(nvm);
        } finally {
            SecureFiles.deleteTree(nvm);
        }
    }

    private CrashTestOutcome resume(Path nvm) throws IOException {
        long deadline = System.nanoTime() + deadlineNanos;
        SingleRankComm comm = new SingleRankComm();
        Recomputable app;
        EasyCrash easyCrash;
        try {
            app = target.prepare(comm);
            EasyCrashSettings settings = CampaignTarget.settings(nvm, null, true);
            easyCrash = EasyCrash.start(comm, app.application(), app.signature(), app.regions(), app.heapBytes(),
                    settings, null, null);
        } catch (RuntimeException e) {
            lastInterruption = "restart failed to start: " + e;
            return CrashTestOutcome.S3;
        }
        try (easyCrash) {
            if (!easyCrash.resuming()) {
                lastInterruption = "NVM state not resumable: " + easyCrash.recovery().reason();
                return CrashTestOutcome.S3; // the NVM state was unusable: nothing to recompute from
            }
            app.attach(easyCrash);
            app.initialize(false);
            for (int it = easyCrash.firstIteration(1); it <= app.maxIterations(); it++) {
                easyCrash.beginIteration(it);
                app.iterate(it, easyCrash);
                if (it >= app.iterations()) {
                    Verdict verdict = app.verify();
                    if (verdict.accepted()) {
                        return it == app.iterations() ? CrashTestOutcome.S1 : CrashTestOutcome.S2;
                    }
                    if (hasNaN(easyCrash)) {
                        lastInterruption = "NaN in a candidate object (" + verdict.reason() + ")";
                        return CrashTestOutcome.S3;
                    }
                }
                if (System.nanoTime() > deadline) {
                    lastInterruption = "time limit reached at iteration " + it;
                    return CrashTestOutcome.S3;
                }
            }
            return CrashTestOutcome.S4;
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            lastInterruption = e.toString();
            return CrashTestOutcome.S3;
        }
    }

    /** Why the most recent S3 happened, for the report (one line). */
    volatile String lastInterruption = "";

    private static boolean hasNaN(EasyCrash easyCrash) {
        for (DataObject object : easyCrash.heap().objects().values()) {
            if (object.role() == ObjectRole.CANDIDATE && object instanceof DoubleArray array) {
                MemorySegment segment = array.segment();
                for (long i = 0; i < array.length(); i++) {
                    if (Double.isNaN(segment.getAtIndex(java.lang.foreign.ValueLayout.JAVA_DOUBLE, i))) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
