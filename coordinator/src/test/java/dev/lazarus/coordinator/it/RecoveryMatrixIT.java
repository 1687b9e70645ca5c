package dev.lazarus.coordinator.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.testing.JobFiles;
import dev.lazarus.testing.LazarusProcess;
import dev.lazarus.testing.RunningJob;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The recovery matrix with real processes: an application at class A on two ranks, checkpointed to L1 and L3, has a
 * rank SIGKILLed once two versions are on both levels; the relaunch (the same {@code ./lazarus run}) goes through
 * one recovery path and must end verified, from the path its log names, restoring at least the newest version every
 * rank had reached (or, on a rollback, starting over where the coordinator's estimate says that is cheaper). CI runs
 * the cells of {@link #ciCells}; {@code -Dlazarus.matrix=full} (what {@code scripts/recovery-matrix} sets) runs every
 * application x every path x both backends.
 */
class RecoveryMatrixIT {
    private static final String SUCCESS = "Verification    =               SUCCESSFUL";
    private static final Pattern RESTORED = Pattern.compile("checkpoint restart: restored version (\\d+) from (L\\d)");
    /** Checkpoint interval per application at class A: about five versions per run. */
    private static final Map<String, Integer> EVERY = Map.of("npb.CG", 3, "npb.MG", 1, "npb.FT", 1, "npb.IS", 2,
            "npb.EP", 256, "solver.HEAT", 100);

    @TempDir
    Path dir;

    enum RecoveryPath {
        /** Relaunch as is: NVM restart (accepted, or rejected and rolled back to the newest checkpoint). */
        NVM_RESTART,
        /** The NVM state is gone: restore from L1. */
        NVM_WIPED_L1,
        /** The NVM state and the RAM disk are gone: restore from L3. */
        NVM_AND_L1_WIPED_L3,
        /** The heap's data is garbage: the resumed run is rejected (or throws) and the job rolls back. */
        NVM_GARBAGE_ROLLBACK,
        /** A second SIGKILL right after a checkpoint restore, then a relaunch. */
        SECOND_CRASH_AFTER_RESTORE
    }

    static Stream<Arguments> cells() {
        if ("full".equals(System.getProperty("lazarus.matrix"))) {
            List<Arguments> all = new ArrayList<>();
            String only = System.getProperty("lazarus.matrix.backend", "");
            for (String backend : only.isEmpty() ? List.of("openmpi", "mpj") : List.of(only)) {
                String onlyApp = System.getProperty("lazarus.matrix.app", "");
                for (String app : EVERY.keySet().stream().sorted().filter(a -> onlyApp.isEmpty() || a.equals(onlyApp))
                        .toList()) {
                    for (RecoveryPath path : RecoveryPath.values()) {
                        if (System.getProperty("lazarus.matrix.path", path.name()).equals(path.name())) {
                            all.add(Arguments.of(backend, app, path));
                        }
                    }
                }
            }
            return all.stream();
        }
        return ciCells();
    }

    /** Multi-variable restores on both backends, and each path at least once. */
    static Stream<Arguments> ciCells() {
        return Stream.of(
                Arguments.of("openmpi", "npb.MG", RecoveryPath.NVM_WIPED_L1),
                Arguments.of("openmpi", "npb.IS", RecoveryPath.NVM_WIPED_L1),
                Arguments.of("mpj", "npb.CG", RecoveryPath.NVM_WIPED_L1),
                Arguments.of("openmpi", "npb.CG", RecoveryPath.NVM_AND_L1_WIPED_L3),
                Arguments.of("openmpi", "solver.HEAT", RecoveryPath.NVM_RESTART),
                Arguments.of("openmpi", "npb.MG", RecoveryPath.NVM_GARBAGE_ROLLBACK),
                Arguments.of("openmpi", "npb.IS", RecoveryPath.NVM_GARBAGE_ROLLBACK),
                Arguments.of("mpj", "npb.FT", RecoveryPath.SECOND_CRASH_AFTER_RESTORE));
    }

    private String[] args(String backend, String app, String job) {
        return new String[] {"run", "--max-restarts", "0", "--np", "2", "--backend", backend, "--job", job, "--nvm-dir",
            dir.resolve("nvm").toString(), "--ckpt-every", EVERY.get(app).toString(), "--ckpt-dir",
            dir.resolve("l1").toString(), "--pfs-dir", dir.resolve("pfs").toString(), "--timeout", "300", app,
            "--class", "A", "--quiet"};
    }

    @ParameterizedTest(name = "{1} {2} on {0}")
    @MethodSource("cells")
    void aKilledJobRecoversOnThePath(String backend, String app, RecoveryPath path) throws Exception {
        System.out.println("matrix cell: " + backend + " " + app + " " + path); // scripts/recovery-matrix reads it
        String job = (app + "-" + path + "-" + backend).toLowerCase().replace('_', '-');
        String[] args = args(backend, app, job);
        long reached = RunningJob.killOnceVersionIsEverywhere(args, dir.resolve("l1").resolve(job),
                dir.resolve("pfs").resolve(job), 2L * EVERY.get(app));
        Path nvmJob = dir.resolve("nvm").resolve(job);
        switch (path) {
            case NVM_RESTART -> { }
            case NVM_WIPED_L1 -> JobFiles.wipe(nvmJob);
            case NVM_AND_L1_WIPED_L3 -> {
                JobFiles.wipe(nvmJob);
                JobFiles.wipe(dir.resolve("l1"));
            }
            case NVM_GARBAGE_ROLLBACK -> garbleHeaps(nvmJob);
            case SECOND_CRASH_AFTER_RESTORE -> {
                JobFiles.wipe(nvmJob);
                reached = Math.max(reached, killRightAfterRestore(args));
            }
        }
        LazarusProcess.Result relaunch = LazarusProcess.run(Duration.ofMinutes(6), args);
        String out = relaunch.output();
        assertEquals(0, relaunch.exitStatus(), out);
        assertTrue(out.contains(SUCCESS), out);
        Matcher restored = RESTORED.matcher(out);
        switch (path) {
            // After a second crash the relaunch may resume from NVM (the restored run bookmarked its progress there)
            // or restore a checkpoint at least as new as the first restore.
            case NVM_RESTART, NVM_GARBAGE_ROLLBACK, SECOND_CRASH_AFTER_RESTORE -> {
                // Not accepted: rejected by the check, rolled back by the ranks, or a rollback the coordinator chose
                // after the resumed run threw.
                boolean resumedAndAccepted = out.contains("NVM restart: resuming")
                        && !out.contains("failed acceptance verification") && !out.contains("-> rollback")
                        && !out.contains("the coordinator chose rollback");
                // Or the coordinator's estimates put starting over below every restore (IS class A: ten iterations
                // of about 20 ms against a restore of 0.2 s), which is what it should then choose.
                boolean beginningWasCheapest = out.contains("-> beginning [cheapest]")
                        && out.contains("checkpoint restart: the coordinator chose the beginning");
                assertTrue(resumedAndAccepted || beginningWasCheapest
                        || restored.find() && Long.parseLong(restored.group(1)) >= reached,
                        "neither an accepted NVM restart nor a rollback to version >= " + reached
                        + " or to the beginning as the cheapest:\n" + out);
                if (path == RecoveryPath.NVM_GARBAGE_ROLLBACK) {
                    assertTrue(!resumedAndAccepted, "garbage in every candidate object was accepted:\n" + out);
                }
            }
            case NVM_WIPED_L1 -> assertRestored(restored, reached, "L1", out);
            case NVM_AND_L1_WIPED_L3 -> assertRestored(restored, reached, "L3", out);
        }
    }

    private static void assertRestored(Matcher restored, long reached, String level, String out) {
        assertTrue(restored.find(), out);
        assertTrue(Long.parseLong(restored.group(1)) >= reached, "restored below " + reached + ":\n" + out);
        assertEquals(level, restored.group(2), out);
    }

    /** Relaunches, SIGKILLs a rank as soon as the checkpoint restart is reported, and returns the version restored. */
    private long killRightAfterRestore(String[] args) throws Exception {
        RunningJob running = RunningJob.start(args, Map.of("LAZARUS_CKPT_PFS_EVERY", "1"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        Matcher m;
        while (!(m = RESTORED.matcher(running.outputNow())).find()) {
            assertTrue(running.process().isAlive() && System.nanoTime() < deadline,
                    "no checkpoint restart reported: " + running.outputNow());
            Thread.sleep(5);
        }
        running.killOneRank();
        return Long.parseLong(m.group(1));
    }

    /**
     * Overwrites every heap's data pages (everything after the header page) with 0x7f bytes: doubles of about 1e306
     * and ints of 2139062143, as garbage a lost cache line or a stray write could leave. The header and bookmark stay
     * valid, so the heap checks pass and only the acceptance check (or an exception) can catch it.
     */
    private static void garbleHeaps(Path nvmJob) throws IOException {
        try (Stream<Path> files = Files.list(nvmJob)) {
            for (Path heap : files.filter(f -> f.getFileName().toString().endsWith(".heap")).toList()) {
                try (RandomAccessFile file = new RandomAccessFile(heap.toFile(), "rw")) {
                    byte[] garbage = new byte[1 << 16];
                    java.util.Arrays.fill(garbage, (byte) 0x7f);
                    for (long at = 4096; at < file.length(); at += garbage.length) {
                        file.seek(at);
                        file.write(garbage, 0, (int) Math.min(garbage.length, file.length() - at));
                    }
                }
            }
        }
    }
}
