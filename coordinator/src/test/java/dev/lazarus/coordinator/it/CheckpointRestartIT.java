package dev.lazarus.coordinator.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.testing.JobFiles;
import dev.lazarus.testing.LazarusProcess;
import dev.lazarus.testing.RunningJob;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checkpoint levels under real processes: solver.HEAT class B on two Open MPI ranks, NVM restart off, a
 * checkpoint every 400 iterations to L1 and every one drained to L3. A rank is SIGKILLed once version 800 is on both
 * levels; the relaunch must come back from the newest checkpoint (L1, or L3 once L1 is wiped, as when a node's RAM
 * disk is lost) and pass the solver's acceptance verification.
 */
class CheckpointRestartIT {
    private static final String SUCCESS = "Verification    =               SUCCESSFUL";
    private static final Pattern RESTORED = Pattern.compile("checkpoint restart: restored version (\\d+)");

    @TempDir
    Path dir;

    private String[] args(String job) {
        return new String[] {"run", "--max-restarts", "0", "--np", "2", "--job", job, "--nvm-dir",
            dir.resolve("nvm").toString(), "--no-nvm-restart", "--ckpt-every", "400", "--ckpt-dir",
            dir.resolve("l1").toString(), "--pfs-dir",
            dir.resolve("pfs").toString(), "--timeout", "300", "solver.HEAT", "--class", "B", "--quiet"};
    }

    @Test
    void afterASigkillTheRelaunchResumesFromL1() throws Exception {
        long killedAfter = killOnceVersionIsEverywhere("heat-l1", 800);
        LazarusProcess.Result relaunch = LazarusProcess.run(Duration.ofMinutes(4), args("heat-l1"));
        assertRestoredAtLeast(relaunch, killedAfter);
        assertTrue(relaunch.output().contains("checkpoint restart: restored version " + restored(relaunch)
                + " from L1, resuming"), relaunch.output());
        assertTrue(isEmpty(dir.resolve("l1").resolve("heat-l1")), "a finished run releases its L1 checkpoints");
    }

    @Test
    void withTheRamDiskLostTheRelaunchResumesFromThePfs() throws Exception {
        long killedAfter = killOnceVersionIsEverywhere("heat-l3", 800);
        JobFiles.wipe(dir.resolve("l1"));
        LazarusProcess.Result relaunch = LazarusProcess.run(Duration.ofMinutes(4), args("heat-l3"));
        assertRestoredAtLeast(relaunch, killedAfter);
        assertTrue(relaunch.output().contains("checkpoint restart: restored version " + restored(relaunch)
                + " from L3, resuming"), relaunch.output());
    }

    private void assertRestoredAtLeast(LazarusProcess.Result relaunch, long version) {
        String out = relaunch.output();
        assertEquals(0, relaunch.exitStatus(), out);
        assertTrue(out.contains(SUCCESS), out);
        assertTrue(restored(relaunch) >= version, out);
    }

    private static long restored(LazarusProcess.Result result) {
        Matcher m = RESTORED.matcher(result.output());
        assertTrue(m.find(), result.output());
        return Long.parseLong(m.group(1));
    }

    private long killOnceVersionIsEverywhere(String job, long version) throws Exception {
        return RunningJob.killOnceVersionIsEverywhere(args(job), dir.resolve("l1").resolve(job),
                dir.resolve("pfs").resolve(job), version);
    }

    private static boolean isEmpty(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            return true;
        }
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.findAny().isEmpty();
        }
    }
}
