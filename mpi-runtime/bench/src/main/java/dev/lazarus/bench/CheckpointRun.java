package dev.lazarus.bench;

import dev.lazarus.checkpoint.CheckpointReport;
import dev.lazarus.checkpoint.CheckpointSettings;
import dev.lazarus.checkpoint.Checkpoints;
import dev.lazarus.easycrash.CandidateCheckpoints;
import dev.lazarus.easycrash.EasyCrash;
import dev.lazarus.easycrash.EasyCrashSettings;
import dev.lazarus.easycrash.Recomputable;
import dev.lazarus.easycrash.RecomputableApplication;
import dev.lazarus.mpi.launch.ApplicationCatalog;
import dev.lazarus.mpi.local.SingleRankComm;
import dev.lazarus.store.drain.DrainResult;
import dev.lazarus.store.incremental.CheckpointStats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/**
 * One single-rank run of an application with the checkpoint client, for the checkpoint benchmarks: its candidate
 * data objects (the state a restart needs, in the mapped NVM heap) are protected and checkpointed every N
 * iterations. Prints one JSON line.
 *
 * <pre>
 *   CheckpointRun APP CLASS MODE EVERY WORKDIR      (EVERY: iterations between checkpoints, or auto: 10 per run)
 *     MODE none   no checkpoints (the baseline)
 *          l1     checkpoints to L1 only
 *          drain  checkpoints to L1, drained to L3 (WORKDIR/pfs, or -Dlazarus.bench.pfs=DIR) at the configured
 *                 interval (-Dlazarus.ckpt.pfs.every=N, default 4)
 *          sizes  like l1, every version incremental, and the sizes of each version printed
 * </pre>
 */
public final class CheckpointRun {

    private CheckpointRun() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: CheckpointRun APP CLASS none|l1|drain|sizes EVERY|auto WORKDIR");
            System.exit(2);
        }
        String mode = args[2];
        Path work = Files.createDirectories(Path.of(args[4]));
        ApplicationCatalog catalog = new ApplicationCatalog(CheckpointRun.class.getClassLoader());
        RecomputableApplication factory = (RecomputableApplication) catalog.resolve(args[0]);
        SingleRankComm comm = new SingleRankComm();
        Recomputable app = factory.prepare(comm, new String[] {"--class", args[1], "--quiet"});
        int every = args[3].equals("auto") ? Math.max(1, app.iterations() / 10) : Integer.parseInt(args[3]);
        Properties nvm = new Properties();
        nvm.setProperty(EasyCrashSettings.NVM_DIR, work.resolve("nvm").toString());
        nvm.setProperty(EasyCrashSettings.JOB_ID, "bench");
        nvm.setProperty(EasyCrashSettings.RESTART, "off");
        try (EasyCrash easyCrash = EasyCrash.start(comm, app.application(), app.signature(), app.regions(),
                app.heapBytes(), new EasyCrashSettings(nvm, Map.of()), null, null)) {
            app.attach(easyCrash);
            app.initialize(true);
            easyCrash.persistStartingState(); // as RecomputingRun does
            Checkpoints ckpt = mode.equals("none") ? null : Checkpoints.open(comm, settings(mode, work), m -> { });
            if (ckpt != null) {
                CandidateCheckpoints.protect(ckpt, easyCrash.heap());
            }
            StringBuilder versions = new StringBuilder();
            long waitedNanos = 0;
            long start = System.nanoTime();
            for (int it = 1; it <= app.iterations(); it++) {
                easyCrash.beginIteration(it);
                app.iterate(it, easyCrash);
                if (ckpt != null && it % every == 0) {
                    CheckpointReport report = ckpt.checkpoint(it);
                    if (!report.complete()) {
                        throw new IOException("checkpoint " + it + " failed: " + report.error());
                    }
                    waitedNanos += report.drainWaitNanos();
                    if (mode.equals("sizes")) {
                        versions.append(versions.isEmpty() ? "" : ",").append(json(report.stats()));
                    }
                }
            }
            double seconds = (System.nanoTime() - start) * 1e-9;
            long loopEnd = System.nanoTime();
            if (ckpt != null) {
                ckpt.awaitDrain(); // the last drain, off the main loop: reported apart
            }
            double finalDrainSeconds = (System.nanoTime() - loopEnd) * 1e-9;
            String verdict = app.verify().accepted() ? "true" : "false";
            long drained = 0;
            String tracking = ckpt == null ? "" : ckpt.pageTracking();
            if (ckpt != null) {
                drained = ckpt.drainResults().stream().filter(DrainResult::ok).count();
                ckpt.close();
            }
            easyCrash.release();
            System.out.println("{\"app\":\"" + app.application() + "\",\"mode\":\"" + mode + "\",\"every\":" + every
                    + ",\"seconds\":" + seconds + ",\"drainWaitSeconds\":" + waitedNanos * 1e-9
                    + ",\"finalDrainSeconds\":" + finalDrainSeconds
                    + ",\"verified\":" + verdict + ",\"drained\":" + drained
                    + ",\"pageTracking\":\"" + tracking + "\",\"versions\":["
                    + versions + "]}");
        } finally {
            BenchHeap.delete(work);
        }
    }

    private static CheckpointSettings settings(String mode, Path work) {
        Properties p = new Properties();
        p.putAll(System.getProperties()); // -Dlazarus.ckpt.pfs.every=N and the like
        p.setProperty(CheckpointSettings.L1_DIR, work.resolve("l1").toString());
        p.setProperty(CheckpointSettings.PFS_DIR, mode.equals("drain")
                ? System.getProperty("lazarus.bench.pfs", work.resolve("pfs").toString()) : "off");
        if (mode.equals("sizes")) {
            p.setProperty(CheckpointSettings.FULL_EVERY, "1000000");
        }
        return new CheckpointSettings(p, Map.of()).conclude("bench");
    }

    /** @return one version's sizes and times as JSON, the form scripts/bench/ckpt-sizes reads */
    static String json(CheckpointStats s) {
        return "{\"version\":" + s.version() + ",\"full\":" + s.full() + ",\"fullBytes\":" + s.fullBytes()
                + ",\"pageBytes\":" + s.pageLevelBytes() + ",\"blockBytes\":" + s.blockLevelBytes()
                + ",\"dataBytes\":" + s.dataBytes() + ",\"hashNanos\":" + s.hashNanos() + ",\"writeNanos\":"
                + s.writeNanos() + "}";
    }
}
