package dev.lazarus.bench;

import dev.lazarus.checkpoint.CheckpointReport;
import dev.lazarus.checkpoint.CheckpointSettings;
import dev.lazarus.checkpoint.Checkpoints;
import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.MpiApplication;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.store.ElementType;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * scripts/bench/ckpt-levels' workload: every rank holds MIB MiB of doubles, in native memory or a {@code double[]},
 * and writes VERSIONS checkpoints through the levels the launch configured (L1 always; L2 and L3 by their settings),
 * rewriting every element before each. Each version is timed on every rank from a barrier: the blocking write (the
 * time {@link Checkpoints#checkpoint} keeps the application) and the completion (until the background work queued for
 * the version, L2 encoding or the L3 drain, is done); rank 0 prints the slowest rank's figures as one JSON line per
 * version. {@code --restore l1|l3} then restores the newest version twice and times each (the whole restart, and the
 * slowest rank's read of the data files within it), {@code l3} after every rank deleted its L1 files, and checks every
 * element. {@code --restore-only l1|l3} writes nothing and restores the same way what an earlier launch of the same
 * job with the same {@code --mib} and {@code --versions} left on the levels: the first restore of a relaunched rank,
 * as after a crash (no Lazarus code has run in the process before, beyond the launch's set-up).
 *
 * <pre>
 *   LevelSpeed [--mib 256] [--versions 3] [--memory native|array] [--restore none|l1|l3 | --restore-only l1|l3]
 * </pre>
 */
public final class LevelSpeed implements MpiApplication {
    private static final ValueLayout.OfDouble D = ValueLayout.JAVA_DOUBLE;

    @Override
    public String name() {
        return "bench.LevelSpeed";
    }

    @Override
    public int run(Comm comm, String[] args) throws Exception {
        long mib = 256;
        int versions = 3;
        boolean array = false;
        String restore = "none";
        boolean restoreOnly = false;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : "";
            switch (args[i]) {
                case "--mib" -> mib = Long.parseLong(value);
                case "--versions" -> versions = Integer.parseInt(value);
                case "--memory" -> array = switch (value) {
                    case "native" -> false;
                    case "array" -> true;
                    default -> throw new IllegalArgumentException("--memory must be native or array");
                };
                case "--restore" -> restore = value;
                case "--restore-only" -> {
                    restore = value;
                    restoreOnly = true;
                }
                default -> throw new IllegalArgumentException("LevelSpeed: unknown argument '" + args[i]
                        + "' (usage: [--mib M] [--versions V] [--memory native|array] [--restore none|l1|l3 |"
                        + " --restore-only l1|l3])");
            }
            i++;
        }
        if (mib < 1 || mib > 16384 || versions < 1 || !restore.matches(restoreOnly ? "l1|l3" : "none|l1|l3")) {
            throw new IllegalArgumentException("LevelSpeed: --mib 1..16384, --versions >= 1, --restore none|l1|l3,"
                    + " --restore-only l1|l3");
        }
        long n = mib * 1024 * 1024 / Double.BYTES;
        if (array && n > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("LevelSpeed: --memory array holds at most 16383 MiB");
        }
        CheckpointSettings settings = CheckpointSettings.fromSystem().conclude(name());
        try (Arena arena = Arena.ofShared();
             Checkpoints checkpoints = Checkpoints.open(comm, settings, line -> log(comm, line))) {
            MemorySegment data = array ? MemorySegment.ofArray(new double[(int) n]) : arena.allocate(n * 8, 4096);
            // A relaunch restores every element: only the versions written here start from the base values (and
            // without this loop its compilation would overlap the timed restore).
            if (!restoreOnly) {
                for (long i = 0; i < n; i++) {
                    data.setAtIndex(D, i, base(comm, i));
                }
            }
            if (array) {
                checkpoints.protect("x", (double[]) data.heapBase().orElseThrow());
            } else {
                checkpoints.protect("x", data, ElementType.DOUBLE);
            }
            if (comm.rank() == 0) {
                log(comm, "rank 0: page tracking: " + checkpoints.pageTracking());
            }
            int written = restoreOnly ? 0 : versions;
            for (int v = 1; v <= written; v++) {
                for (long i = 0; i < n; i++) {
                    data.setAtIndex(D, i, data.getAtIndex(D, i) + 1.0);
                }
                comm.barrier();
                long start = System.nanoTime();
                CheckpointReport report = checkpoints.checkpoint(v);
                long blocking = System.nanoTime() - start;
                checkpoints.awaitDrain();
                long complete = System.nanoTime() - start;
                if (!report.complete()) {
                    throw new IOException("version " + v + " is not complete: " + report.error());
                }
                long[] slowest = {blocking, complete, report.stats().dataBytes(), report.stats().hashNanos(),
                    report.stats().writeNanos()};
                comm.allreduce(slowest, 0, slowest, 0, slowest.length, ReduceOp.MAX);
                if (comm.rank() == 0) {
                    System.out.printf(Locale.ROOT, "{\"version\":%d,\"full\":%b,\"blocking\":%.4f,\"complete\":%.4f,"
                                    + "\"hash\":%.4f,\"write\":%.4f,\"rank_bytes\":%d,\"ranks\":%d}%n", v,
                            report.stats().full(), slowest[0] / 1e9, slowest[1] / 1e9, slowest[3] / 1e9,
                            slowest[4] / 1e9, slowest[2], comm.size());
                }
            }
            if (!restore.equals("none")) {
                // Twice: the first is the process's first pass through the restore code (with --restore-only, in a
                // relaunched process; else a rollback within the run), the second shows the same restore once that
                // code is loaded, linked and compiled.
                for (int pass = 1; pass <= 2; pass++) {
                    restore(comm, checkpoints, settings, data, n, versions, restore, pass, restoreOnly);
                }
            }
        }
        return 0;
    }

    private static void restore(Comm comm, Checkpoints checkpoints, CheckpointSettings settings, MemorySegment data,
                                long n, int versions, String level, int pass, boolean relaunched)
            throws IOException {
        if (level.equals("l3")) {
            // Each rank deletes its own L1 files, as a lost RAM disk would: the restore must come from L3.
            CheckpointDirectory l1 = new CheckpointDirectory(settings.l1Directory(), settings.jobId());
            for (long version : l1.versions()) {
                Files.deleteIfExists(l1.manifestFile(version, comm.rank()));
                Files.deleteIfExists(l1.dataFile(version, comm.rank()));
            }
        }
        data.fill((byte) 0);
        comm.barrier();
        long start = System.nanoTime();
        OptionalLong restored = checkpoints.restart();
        long[] slowest = {System.nanoTime() - start};
        comm.allreduce(slowest, 0, slowest, 0, 1, ReduceOp.MAX);
        long wrong = 0;
        for (long i = 0; i < n; i++) {
            if (data.getAtIndex(D, i) != base(comm, i) + versions) {
                wrong++;
            }
        }
        wrong = comm.allreduce(wrong, ReduceOp.SUM);
        if (comm.rank() == 0) {
            System.out.printf(Locale.ROOT, "{\"restore\":\"%s\",\"relaunched\":%b,\"pass\":%d,\"version\":%d,"
                            + "\"from\":\"%s\",\"seconds\":%.4f,\"read\":%.4f,\"wrong\":%d}%n", level, relaunched, pass,
                    restored.orElse(-1), checkpoints.restoredFrom(), slowest[0] / 1e9,
                    checkpoints.restoreReadTime().toNanos() / 1e9, wrong);
        }
        if (restored.orElse(-1) != versions || wrong != 0) {
            throw new IOException("restore from " + level + " gave version " + restored.orElse(-1) + " with " + wrong
                    + " wrong elements");
        }
    }

    private static double base(Comm comm, long i) {
        return (double) ((comm.rank() * 1_000_003L + i) % 1_000_033L);
    }

    private static void log(Comm comm, String line) {
        if (comm.rank() == 0) {
            System.err.println(line);
        }
    }
}
