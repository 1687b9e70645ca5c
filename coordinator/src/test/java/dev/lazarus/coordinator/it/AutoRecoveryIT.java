package dev.lazarus.coordinator.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lazarus.mpi.launch.ProcFiles;
import dev.lazarus.testing.LazarusProcess;
import dev.lazarus.testing.RunningJob;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Relaunch without a person: one {@code ./lazarus run} whose rank is SIGKILLed (or SIGSTOPped) part way brings its
 * job back by itself, on the path the coordinator chose from the plan's recomputability and the job's measured
 * times, and ends with a verified result and a summary. Every run must pass its acceptance verification.
 */
class AutoRecoveryIT {
    private static final String SUCCESS = "Verification    =               SUCCESSFUL";
    /**
     * HEAT's regions with nothing persisted: a process crash leaves the heap whole (the page cache outlives the
     * process), so NVM restart never finds a persistence operation cut short; the plan only carries R.
     */
    private static final String HEAT_REGIONS = "regions=redSweep,blackSweep\ncritical=\n";

    @TempDir
    Path dir;

    private Path plan(String app, String body, double recomputability) throws Exception {
        Path plan = dir.resolve(app + "-" + recomputability + ".plan");
        Files.writeString(plan, "app=" + app + "\n" + body + "recomputability=" + recomputability + "\n",
                StandardCharsets.UTF_8);
        return plan;
    }

    private String[] heat(String backend, String job, Path plan, String... more) {
        List<String> args = new ArrayList<>(List.of("run", "--np", "2", "--backend", backend, "--job", job,
                "--nvm-dir", dir.resolve("nvm").toString(), "--timeout", "300", "--plan", plan.toString(),
                "--state-dir", dir.resolve("state").toString()));
        args.addAll(List.of(more));
        args.addAll(List.of("solver.HEAT", "--class", "A"));
        return args.toArray(String[]::new);
    }

    /** Waits until the job printed {@code line} (it must not end first). */
    private static void waitFor(RunningJob job, String line) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!job.outputNow().contains(line)) {
            assertTrue(job.process().isAlive() && System.nanoTime() < deadline, "no '" + line + "': "
                    + job.outputNow());
            Thread.sleep(20);
        }
    }

    /** SIGKILLs one rank JVM and returns what the job printed once it ended, which must be with status 0. */
    private static String killARankAndAwaitRecovery(RunningJob job, String test) throws Exception {
        assertTrue(job.rankJvms().getFirst().destroyForcibly(), "no rank to kill");
        String out = reported(test, job.awaitEnd());
        assertEquals(0, job.process().exitValue(), out);
        return out;
    }

    /** Prints the coordinator's and the ranks' recovery lines, the evidence of the run, to the test's output. */
    private static String reported(String test, String out) {
        System.out.println("AutoRecoveryIT " + test + ":");
        out.lines().filter(l -> l.startsWith("lazarus: ") && !l.startsWith("lazarus: building"))
                .forEach(l -> System.out.println("  " + l));
        return out;
    }

    private static long count(String text, String what) {
        return text.lines().filter(l -> l.contains(what)).count();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"openmpi", "mpj"})
    void aKilledRankIsBroughtBackFromNvmByTheSameCommand(String backend) throws Exception {
        RunningJob job = RunningJob.start(heat(backend, "auto-" + backend, plan("solver.HEAT", HEAT_REGIONS, 1.0)),
                Map.of());
        waitFor(job, "iteration   1200");
        String out = killARankAndAwaitRecovery(job, "kill " + backend);
        assertTrue(out.contains("lazarus: failure 1: rank crash"), out);
        assertTrue(out.contains("-> NVM restart at "), out);
        assertTrue(out.contains("lazarus: NVM restart: resuming at iteration"), out);
        assertTrue(out.contains("lazarus: launch 2: NVM restart at iteration "), out);
        assertEquals(1, count(out, SUCCESS), out);
        assertTrue(out.contains("lazarus: summary: 2 launches, 1 failures {rank crash=1}"), out);
        assertTrue(out.contains("result: verified (exit status 0)"), out);
        assertTrue(out.contains("lazarus: the job's state is in Hazelcast now (cluster lazarus-auto-" + backend + "-"),
                out);

        // What the coordinator kept, as lazarus status shows it to a person and to a program.
        String[] status = {"status", "--job", "auto-" + backend, "--state-dir", dir.resolve("state").toString()};
        LazarusProcess.Result table = LazarusProcess.run(Duration.ofMinutes(1), status);
        assertEquals(0, table.exitStatus(), table.output());
        assertTrue(table.output().contains("job auto-" + backend + ": solver.HEAT --class A on 2 ranks"),
                table.output());
        assertTrue(table.output().contains("2 launches, succeeded"), table.output());
        assertTrue(table.output().contains("failure  failure 1: rank crash"), table.output());
        String[] asJson = Arrays.copyOf(status, status.length + 1);
        asJson[status.length] = "--json";
        LazarusProcess.Result json = LazarusProcess.run(Duration.ofMinutes(1), asJson);
        assertEquals(0, json.exitStatus(), json.output());
        assertTrue(json.output().contains("\"launches\" : 2"), json.output());
        assertTrue(json.output().contains("\"failures\" : 1"), json.output());
        assertTrue(json.output().contains("-> NVM restart at"), json.output());
    }

    /** FT's recomputability is low (paper §6): the coordinator rolls back and the ranks never try NVM. */
    @Test
    void aLowRecomputabilityRollsBackWithoutAnNvmAttempt() throws Exception {
        Path plan = plan("npb.FT", "regions=evolve,fft,checksum\ncritical=\n", 0.02);
        RunningJob job = RunningJob.start(new String[] {"run", "--np", "2", "--job", "ft-low", "--nvm-dir",
            dir.resolve("nvm").toString(), "--timeout", "300", "--plan", plan.toString(), "--state-dir",
            dir.resolve("state").toString(), "npb.FT", "--class", "A"}, Map.of());
        waitFor(job, " T =    2 ");
        String out = killARankAndAwaitRecovery(job, "low R");
        assertTrue(out.contains("R 0.02 (plan 0.02)"), out);
        assertTrue(out.contains("-> beginning [cheapest]"), out);
        assertTrue(out.contains("lazarus: NVM start: fresh (the coordinator chose rollback: beginning expected"), out);
        assertFalse(out.contains("NVM restart: resuming"), out);
        assertEquals(1, count(out, SUCCESS), out);
    }

    /** With checkpoints, a rollback restores the newest version rather than starting again. */
    @Test
    void aRollbackRestoresTheCheckpointTheCoordinatorChose() throws Exception {
        RunningJob job = RunningJob.start(heat("openmpi", "auto-ckpt", plan("solver.HEAT", HEAT_REGIONS, 0.0),
                "--ckpt-every", "400", "--ckpt-dir", dir.resolve("l1").toString(), "--pfs-dir",
                dir.resolve("pfs").toString()), Map.of());
        waitFor(job, "iteration   1920");
        String out = killARankAndAwaitRecovery(job, "checkpoint");
        Matcher chosen = Pattern.compile("-> L1 v(\\d+) \\[cheapest]").matcher(out);
        assertTrue(chosen.find(), out);
        assertTrue(Long.parseLong(chosen.group(1)) >= 1600, "the newest version on L1: " + out);
        assertTrue(out.contains("checkpoint restart: restored version " + chosen.group(1) + " from L1"), out);
        assertTrue(out.contains("lazarus: launch 2: restored version " + chosen.group(1) + " from L1 in "), out);
        assertFalse(out.contains("NVM restart: resuming"), out);
        assertEquals(1, count(out, SUCCESS), out);
        // The restore's time, from the ranks' heartbeats, is the job's measured L1 bandwidth from now on.
        LazarusProcess.Result status = LazarusProcess.run(Duration.ofMinutes(1), "status", "--job", "auto-ckpt",
                "--state-dir", dir.resolve("state").toString());
        assertEquals(0, status.exitStatus(), status.output());
        assertTrue(Pattern.compile("restores measured: L1 \\d+\\.\\d MB/s").matcher(status.output()).find(),
                status.output());
    }

    /**
     * L1 on a RAM disk with no room (a 64 KiB tmpfs; root only): every checkpoint fails for lack of space, said once
     * per rank, the run goes on, and a rank killed part way is a disk full failure, with the version that did not fit;
     * with no version to restore and R 0 the relaunch starts from the beginning and verifies.
     */
    @Test
    void aCrashWhileL1IsFullIsADiskFullFailure() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "mounting a tmpfs needs root");
        Path l1 = Files.createDirectories(dir.resolve("l1"));
        mount(l1);
        String out;
        try {
            RunningJob job = RunningJob.start(heat("openmpi", "auto-full", plan("solver.HEAT", HEAT_REGIONS, 0.0),
                    "--ckpt-every", "400", "--ckpt-dir", l1.toString(), "--pfs-dir", "off"), Map.of());
            waitFor(job, "iteration   1920");
            out = killARankAndAwaitRecovery(job, "disk full");
        } finally {
            run("umount", l1.toString());
        }
        assertTrue(Pattern.compile("lazarus: failure 1: disk full \\(L1 had no room for version \\d+ of rank \\d on"
                + " node \\S+; ranks? \\[?[0-9, ]+]? without a status\\)").matcher(out).find(), out);
        assertTrue(out.contains("-> beginning [cheapest]"), out);
        assertTrue(out.contains("1 failures {disk full=1}"), out);
        assertEquals(1, count(out, SUCCESS), out);
        // One line per rank and launch says the level is full, and one per launch that checkpoints are incomplete,
        // not one per checkpoint.
        assertEquals(4, count(out, "did not reach L1: "), out);
        assertEquals(2, count(out, "is incomplete: a rank failed to write it"), out);
    }

    private static void mount(Path directory) throws Exception {
        run("mount", "-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", directory.toString());
    }

    private static void run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0,
                String.join(" ", command) + ": " + text);
    }

    /**
     * {@code --ckpt-every auto}: the ranks measure their checkpoint and iteration times and checkpoint at Daly's
     * interval for the MTBF, saying why; a rollback restores one of those versions.
     */
    @Test
    void anAutomaticIntervalIsChosenFromMeasurementsAndRestoredFrom() throws Exception {
        String[] command = heat("openmpi", "auto-interval", plan("solver.HEAT", HEAT_REGIONS, 0.0), "--ckpt-every",
                "auto", "--mtbf", "30", "--ckpt-dir", dir.resolve("l1").toString(), "--pfs-dir",
                dir.resolve("pfs").toString());
        command[command.length - 1] = "B";
        RunningJob job = RunningJob.start(command, Map.of());
        waitFor(job, "iteration   1920");
        String out = killARankAndAwaitRecovery(job, "auto interval");
        Matcher interval = Pattern.compile("lazarus: checkpoint interval auto: every (\\d+) iterations \\(Daly: .*"
                + "MTBF 30\\.0 s configured, R 0\\.00: rollbacks every 30\\.0 s").matcher(out);
        assertTrue(interval.find(), out);
        // The first plans rest on iterations the JIT has not compiled yet (300 ms on a loaded machine); the plan in
        // force when the rank was killed rests on warm ones. Tens of milliseconds of checkpoint against 30 s: an
        // interval of a second or so, hundreds of 2 ms iterations.
        int every;
        int firstFailure = out.indexOf("lazarus: failure 1:");
        do {
            every = Integer.parseInt(interval.group(1));
        } while (interval.find() && interval.start() < firstFailure);
        assertTrue(every > 20 && every < 4800, "the interval in force at the kill: " + every + "\n" + out);
        Matcher restored = Pattern.compile("checkpoint restart: restored version (\\d+) from L1").matcher(out);
        assertTrue(restored.find(), out);
        assertTrue(Long.parseLong(restored.group(1)) > 1, "a version at the interval, not only the first: " + out);
        assertEquals(1, count(out, SUCCESS), out);
    }

    /** A rank stopped in its main loop stalls the job; the coordinator sees its silent heartbeat and recovers. */
    @Test
    void aStoppedRankIsAHangThatIsKilledAndRecovered() throws Exception {
        RunningJob job = RunningJob.start(heat("openmpi", "auto-hang", plan("solver.HEAT", HEAT_REGIONS, 1.0),
                "--hang-timeout", "3"), Map.of());
        waitFor(job, "iteration    720");
        ProcessHandle rank = job.rankJvms().getFirst();
        Process stop = new ProcessBuilder("kill", "-STOP", Long.toString(rank.pid())).start();
        assertEquals(0, stop.waitFor(), "kill -STOP");
        String out = reported("hang", job.awaitEnd());
        assertEquals(0, job.process().exitValue(), out);
        assertTrue(out.contains("lazarus: hang: rank "), out);
        assertTrue(out.contains("(hang timeout 3 s); the job was killed"), out);
        assertTrue(out.contains("lazarus: failure 1: hang (rank "), out);
        assertTrue(out.contains("lazarus: NVM restart: resuming at iteration"), out);
        assertEquals(1, count(out, SUCCESS), out);
        assertTrue(out.contains("{hang=1}"), out);
        assertTrue(!rank.isAlive() || ProcFiles.ended(rank.pid()), "the stopped rank was killed");
    }

    /**
     * Ranks stuck in their JVM's start, before any heartbeat, hold the launch forever: no heartbeat will ever go
     * silent. The coordinator judges them from the launch's start with the set-up timeout, kills the job and
     * relaunches it from the beginning (no NVM state, no checkpoint yet). The rank JVMs of the first launch wait at
     * start (HotSpot's PauseAtStartup) until their pause file is deleted, which happens only once the hang is
     * reported; the check of the options ({@code java OPTIONS -version}) and the relaunch's JVMs are let go at once.
     */
    @Test
    void ranksStuckInTheirJvmStartAreAHangAfterTheSetUpTimeout() throws Exception {
        Path pause = dir.resolve("paused");
        RunningJob job = RunningJob.begin(heat("openmpi", "setup-hang", plan("solver.HEAT", HEAT_REGIONS, 1.0),
                "--setup-timeout", "15", "--jvm-opt", "-XX:+UnlockDiagnosticVMOptions", "--jvm-opt",
                "-XX:+PauseAtStartup", "--jvm-opt", "-XX:PauseAtStartupFile=" + pause), Map.of());
        Thread releaser = Thread.ofPlatform().daemon().start(() -> {
            while (job.process().isAlive()) {
                try {
                    if (Files.exists(pause) && (job.outputNow().contains("lazarus: hang: ") || optionCheckRuns())) {
                        Files.deleteIfExists(pause);
                    }
                    Thread.sleep(20);
                } catch (Exception e) {
                    return;
                }
            }
        });
        String out = reported("set-up hang", job.awaitEnd());
        releaser.join();
        assertEquals(0, job.process().exitValue(), out);
        assertTrue(Pattern.compile("lazarus: hang: rank 0 has given no sign of life \\d+ s after the launch began"
                + " \\(JVM start or MPI_Init; hang timeout outside the main loop 15 s\\); the job was killed")
                .matcher(out).find(), out);
        assertTrue(out.contains("lazarus: failure 1: hang before any rank reached its main loop -> relaunch"), out);
        assertTrue(out.contains("{hang=1}"), out);
        // Down from the hung launch's start (no rank gave a sign of life) to the relaunch's main loop.
        assertTrue(Pattern.compile("launch 1: hang -> relaunch as before, decided in \\d+ ms, back at work after"
                + " (1[5-9]|[2-9]\\d)\\.\\d s").matcher(out).find(), out);
        assertEquals(1, count(out, SUCCESS), out);
    }

    /** Whether a JVM started to check the options ({@code -version}) waits at its start. */
    private static boolean optionCheckRuns() {
        return ProcessHandle.allProcesses().anyMatch(p -> ProcFiles.commandLine(p.pid())
                .filter(c -> c.contains("PauseAtStartup") && c.endsWith(" -version")).isPresent());
    }

    /**
     * {@code lazarus halt}: the job stops after its next checkpoint with exit status 75, and the same command resumes
     * it from that checkpoint to a verified result; {@code --now} kills it at once, and the same command resumes it
     * from NVM.
     */
    @Test
    void aHaltedJobStopsAfterACheckpointAndTheSameCommandResumesIt() throws Exception {
        String[] command = heat("openmpi", "halt", plan("solver.HEAT", HEAT_REGIONS, 1.0), "--ckpt-every", "800",
                "--ckpt-dir", dir.resolve("l1").toString());
        // Class B (4800 iterations of about 2 ms, a progress line every 480): time for a person's halt to arrive.
        command[command.length - 1] = "B";
        String[] halt = {"halt", "--job", "halt", "--state-dir", dir.resolve("state").toString()};
        RunningJob job = RunningJob.start(command, Map.of());
        waitFor(job, "iteration    960");
        LazarusProcess.Result asked = LazarusProcess.run(Duration.ofMinutes(1), halt);
        assertEquals(0, asked.exitStatus(), asked.output());
        String out = reported("halt", job.awaitEnd());
        assertEquals(75, job.process().exitValue(), out);
        Matcher stopped = Pattern.compile("lazarus: halted after checkpoint (\\d+) \\(lazarus halt\\)").matcher(out);
        assertTrue(stopped.find(), out);
        assertEquals(0, Long.parseLong(stopped.group(1)) % 800, out);
        assertEquals(0, count(out, SUCCESS), "a halted job reports no result: " + out);
        LazarusProcess.Result notRunning = LazarusProcess.run(Duration.ofMinutes(1), halt);
        assertEquals(2, notRunning.exitStatus(), notRunning.output());
        assertTrue(notRunning.output().contains("job halt is not running (it halted)"), notRunning.output());

        long checkpoint = Long.parseLong(stopped.group(1));
        job = RunningJob.start(command, Map.of());
        // Halt now two progress lines after the restored version.
        waitFor(job, String.format(Locale.ROOT, "iteration %6d", (checkpoint / 480 + 2) * 480));
        assertEquals(0, LazarusProcess.run(Duration.ofMinutes(1), "halt", "--job", "halt", "--state-dir",
                dir.resolve("state").toString(), "--now").exitStatus());
        out = reported("halt --now", job.awaitEnd());
        assertTrue(out.contains("checkpoint restart: restored version " + checkpoint + " from L1"), out);
        assertTrue(out.contains("lazarus: halted now (lazarus halt --now)"), out);
        assertEquals(75, job.process().exitValue(), out);

        job = RunningJob.start(command, Map.of());
        out = reported("resume", job.awaitEnd());
        assertEquals(0, job.process().exitValue(), out);
        assertTrue(out.contains("lazarus: NVM restart: resuming at iteration"), out);
        assertEquals(1, count(out, SUCCESS), out);
    }
}
