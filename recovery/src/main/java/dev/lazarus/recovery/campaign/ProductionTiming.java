package dev.lazarus.recovery.campaign;

import dev.lazarus.easycrash.DoubleArray;
import dev.lazarus.easycrash.EasyCrash;
import dev.lazarus.easycrash.ObjectRole;
import dev.lazarus.easycrash.PersistentHeap;
import dev.lazarus.easycrash.Recomputable;
import dev.lazarus.easycrash.RecomputableApplication;
import dev.lazarus.mpi.launch.ApplicationCatalog;
import dev.lazarus.mpi.local.SingleRankComm;
import dev.lazarus.store.files.SecureFiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Measures, in a JVM that does not trace, what region selection needs (paper §5.3): the application's run time T and
 * the cost of writing back one dirty cache line. A tracing JVM would inflate T (every accessor calls the tracer) and
 * so understate the persistence overhead; this runs as its own process and prints one line:
 * {@code runSeconds=<T> secondsPerLine=<l>}.
 *
 * <p>Usage: {@code ProductionTiming WORKDIR APP [APP ARGS]}.
 */
public final class ProductionTiming {
    private static final int PERSIST_BYTES = 4 << 20;
    private static final int REPEATS = 5;

    private ProductionTiming() {
    }

    public static void main(String[] args) throws Exception {
        Path work = Path.of(args[0]);
        ApplicationCatalog catalog = new ApplicationCatalog(ProductionTiming.class.getClassLoader());
        String[] appArgs = Arrays.copyOfRange(args, 2, args.length);
        CampaignTarget target = new CampaignTarget(args[1],
                () -> (RecomputableApplication) catalog.resolve(args[1]), appArgs);
        double[] runs = new double[REPEATS];
        for (int i = 0; i < REPEATS; i++) {
            runs[i] = timeOneRun(target, Files.createTempDirectory(work, "timing"));
        }
        System.out.println("runSeconds=" + median(runs) + " secondsPerLine=" + secondsPerLine(work));
    }

    /** One fresh, untraced run's main loop, in seconds (the first runs warm the JIT up; the median is reported). */
    private static double timeOneRun(CampaignTarget target, Path nvm) throws IOException {
        SingleRankComm comm = new SingleRankComm();
        Recomputable app = target.prepare(comm);
        try (EasyCrash easyCrash = EasyCrash.start(comm, app.application(), app.signature(), app.regions(),
                app.heapBytes(), CampaignTarget.settings(nvm, null, false), null, null)) {
            app.attach(easyCrash);
            app.initialize(true);
            easyCrash.persistStartingState(); // as RecomputingRun does
            long start = System.nanoTime();
            for (int it = 1; it <= app.iterations(); it++) {
                easyCrash.beginIteration(it);
                app.iterate(it, easyCrash);
            }
            double seconds = (System.nanoTime() - start) * 1e-9;
            easyCrash.release();
            return seconds;
        } finally {
            SecureFiles.deleteTree(nvm);
        }
    }

    /** Write-back cost of one dirty line: persist a freshly written 4 MiB object, median of five. */
    private static double secondsPerLine(Path work) throws IOException {
        Path nvm = Files.createTempDirectory(work, "persist");
        PersistentHeap.Config config = new PersistentHeap.Config(nvm, "timing", 0, 1, PERSIST_BYTES + (1 << 16),
                "timing", null);
        try (PersistentHeap heap = PersistentHeap.open(config)) {
            DoubleArray object = heap.doubles("dirty", PERSIST_BYTES / 8, ObjectRole.CANDIDATE);
            double[] perLine = new double[REPEATS];
            for (int r = 0; r < REPEATS; r++) {
                object.fill(r + 1.0);
                long start = System.nanoTime();
                heap.persist(0, List.of(object));
                perLine[r] = (System.nanoTime() - start) * 1e-9 / (PERSIST_BYTES / 64.0);
            }
            return median(perLine);
        } finally {
            SecureFiles.deleteTree(nvm);
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
