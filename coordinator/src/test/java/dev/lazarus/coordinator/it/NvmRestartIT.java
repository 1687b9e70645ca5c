package dev.lazarus.coordinator.it;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.lazarus.testing.LazarusProcess;
import dev.lazarus.testing.RunningJob;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real rank is killed with SIGKILL at a random point (30-95% of a clean run's span) of a class A run of each
 * application; the relaunch with the same job id must end in a verified result, from an NVM restart or from a clean
 * rollback that says why, never in a wrong answer.
 */
class NvmRestartIT {
    private static final String SUCCESS = "Verification    =               SUCCESSFUL";

    @TempDir
    Path nvm;

    @ParameterizedTest(name = "{2} on {0}, seed {1}")
    @CsvSource({"openmpi,11,npb.CG", "openmpi,12,npb.CG", "openmpi,13,npb.MG", "openmpi,14,npb.FT",
        "openmpi,15,npb.IS", "openmpi,16,npb.EP", "openmpi,17,solver.HEAT", "mpj,21,npb.CG", "mpj,22,npb.MG",
        "mpj,23,npb.FT"})
    void sigkillAtARandomPointThenRelaunchVerifiesOrRollsBack(String backend, long seed, String app)
            throws Exception {
        String job = "restart-" + backend + "-" + seed;
        // One launch per command: this test relaunches by hand, as a job script does.
        String[] args = {"run", "--np", "2", "--backend", backend, "--job", job, "--nvm-dir", nvm.toString(),
            "--timeout", "200", "--max-restarts", "0", app, "--class", "A", "--quiet"};
        // A clean run of the same job (its own id) times the span from rank 0's NVM decision to the end; the kill
        // then falls at a random 30-95% of it, mostly in the main loop, sometimes in set-up or warm-up.
        String[] timingArgs = args.clone();
        timingArgs[6] = job + "-timing";
        long spanMillis = millisFromDecisionToExit(timingArgs);
        long delayMillis = (long) (spanMillis * (0.30 + 0.65 * new Random(seed).nextDouble()));

        String firstOutput = runAndKill(args, delayMillis);
        // A run faster than the timing run (warm caches) can finish before a late kill: kill earlier, not skip.
        for (int retry = 0; firstOutput == null && retry < 2; retry++) {
            delayMillis /= 2;
            firstOutput = runAndKill(args, delayMillis);
        }
        Assumptions.assumeFalse(firstOutput == null,
                "the run finished before the kill at +" + delayMillis + " ms, three times; nothing to restart");
        // Any rank's file left behind means the killed run had not released its whole NVM state. A kill during the
        // release itself (rank 0's heap gone, another rank's heap or object directory still there) is mid-run too:
        // the relaunch must roll back.
        boolean crashedMidRun = anyRankFileLeft(nvm.resolve(job));

        LazarusProcess.Result second = LazarusProcess.run(Duration.ofMinutes(4), args);
        String out = second.output();
        System.out.println("NvmRestartIT " + app + " " + backend + " seed " + seed + ": SIGKILL at +" + delayMillis + " ms of "
                + spanMillis + "; relaunch: "
                + out.lines().filter(l -> l.startsWith("lazarus: NVM")).toList());
        assertEquals(0, second.exitStatus(), out);
        assertTrue(out.contains(SUCCESS), out);
        if (crashedMidRun) {
            assertTrue(out.contains("lazarus: NVM restart: resuming at iteration")
                    || out.contains("lazarus: NVM state unusable -> rollback: ")
                    || out.contains("lazarus: NVM start: fresh (heap exists but no iteration was bookmarked yet)"),
                    out);
        } else {
            // Killed after the run had finished and released its NVM state: the relaunch starts fresh.
            assertTrue(out.contains("lazarus: NVM start: fresh (no heap from an earlier run)"), out);
        }
        if (out.contains("NVM restart failed acceptance verification")) {
            assertTrue(out.contains("-> rollback: restarting from the beginning"), out);
        }
        assertFalse(Files.exists(nvm.resolve(job).resolve("rank-0.heap")), "a finished run releases its heap");
    }

    private static boolean anyRankFileLeft(Path jobDir) throws Exception {
        if (!Files.isDirectory(jobDir)) {
            return false;
        }
        try (var files = Files.list(jobDir)) {
            // Not the lock files, which a released heap leaves behind on purpose.
            return files.anyMatch(f -> f.getFileName().toString().matches("rank-\\d+\\.(heap|objects|attempt)"));
        }
    }

    /**
     * Starts the job, waits until rank 0 reported its NVM decision, sleeps, and SIGKILLs one rank process.
     *
     * @return the output, or {@code null} if the job had already finished successfully
     */
    private static String runAndKill(String[] args, long delayMillis) throws Exception {
        RunningJob job = RunningJob.start(args, Map.of());
        Thread.sleep(delayMillis);
        List<ProcessHandle> ranks = job.rankJvms();
        boolean killed = !ranks.isEmpty() && ranks.getFirst().destroyForcibly();
        String text = job.awaitEnd();
        // The NVM state is judged once no rank of the killed job runs any more: a surviving rank could still release
        // its heap after the launcher returned.
        for (ProcessHandle rank : ranks) {
            rank.onExit().get(60, TimeUnit.SECONDS);
        }
        // Finished first, or killed after every rank's result was verified (while releasing): the result stood.
        if (!killed || (job.process().exitValue() == 0 && (text.contains(SUCCESS)
                || text.contains("the result stands, no relaunch")))) {
            return null;
        }
        assertTrue(job.process().exitValue() != 0, "a killed job must fail: " + text);
        return text;
    }

    /** Runs the job to its end and returns the milliseconds from rank 0's NVM decision to the job's exit. */
    private static long millisFromDecisionToExit(String[] args) throws Exception {
        RunningJob job = RunningJob.start(args, Map.of());
        long decided = System.nanoTime();
        String text = job.awaitEnd();
        assertEquals(0, job.process().exitValue(), text);
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - decided));
    }
}
