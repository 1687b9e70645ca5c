package dev.lazarus.coordinator.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.lazarus.testing.LazarusProcess;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The real {@code ./lazarus} script: bad input gets one line and status 2; a job's status is passed on. */
class CommandLineIT {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "run --np 0 npb.CG                     | --np=0 must be at least 1",
        "run --np 2 npb.NOPE                   | unknown application 'npb.NOPE'",
        "run --np 2 java.lang.String           | does not implement dev.lazarus.mpi.MpiApplication",
        "run --np 2 --backend foo npb.CG       | expected openmpi or mpj but was 'foo'",
        "run --np 2 --hosts /nonexistent npb.CG| --hosts /nonexistent: no such file",
        "run --np two npb.CG                   | 'two' is not an int",
        "run --np 2 npb.CG --class Q           | class=Q is not one of S, W, A, B",
        "frobnicate                            | Unmatched argument"})
    void badInputGetsOneLineAndStatusTwo(String args, String message) throws Exception {
        LazarusProcess.Result result = LazarusProcess.run(Duration.ofMinutes(2), args.trim().split("\\s+"));
        assertEquals(2, result.exitStatus(), result.output());
        assertTrue(result.output().contains("lazarus: "), result.output());
        assertTrue(result.output().contains(message), result.output());
        assertFalse(result.output().contains("\tat "), "no stack trace: " + result.output());
        assertEquals(1, result.output().lines().filter(l -> l.startsWith("lazarus: ")).count(), result.output());
    }

    @Test
    void backendThatIsNotInstalledIsRefused() throws Exception {
        // MPJ_HOME from the environment wins over scripts/setup's default, so this points MPJ at nothing.
        ProcessBuilder builder = new ProcessBuilder(LazarusProcess.home().resolve("lazarus").toString(), "run",
                "--np", "2", "--backend", "mpj", "npb.CG").redirectErrorStream(true);
        builder.environment().put("LAZARUS_NO_BUILD", "1");
        builder.environment().put("MPJ_HOME", "/nonexistent/mpj");
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes());
        assertTrue(process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(2, process.exitValue(), output);
        assertTrue(output.contains("backend mpj is not installed"), output);
    }

    @Test
    void demoKillsARankOfCgClassWOnFourRanksAndTheCoordinatorBringsItBackVerified() throws Exception {
        LazarusProcess.Result result = LazarusProcess.run(Duration.ofMinutes(5), "demo");
        String out = result.output();
        assertEquals(0, result.exitStatus(), out);
        assertTrue(out.contains("lazarus demo: >>> SIGKILL to rank JVM "), out);
        assertTrue(out.contains("lazarus: failure 1: rank crash"), out);
        assertTrue(out.contains("lazarus: relaunch 1 of at most 10: "), out);
        assertEquals(1, out.lines().filter(l -> l.contains("Verification    =               SUCCESSFUL")).count(), out);
        assertTrue(out.lines().anyMatch(l -> l.matches(" Total processes\\s+=\\s+4")), out);
        assertTrue(out.contains("lazarus: summary: 2 launches, 1 failures {rank crash=1}"), out);
        assertTrue(out.contains("lazarus demo: the job survived the crash and its result is verified"), out);
    }
}
