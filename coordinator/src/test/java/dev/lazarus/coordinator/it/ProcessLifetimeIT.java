package dev.lazarus.coordinator.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.mpi.launch.ProcFiles;
import dev.lazarus.testing.RunningJob;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every process a launch starts ends when the launch ends (DESIGN.md, recovery invariant 7). A real job is started,
 * every descendant of {@code ./lazarus} is recorded while it runs, one process is SIGKILLed: a rank JVM, the job's
 * launcher ({@code mpirun}; under MPJ the launcher starts the ranks' one JVM itself, so it is the rank JVM, where MPJ's
 * {@code starter.jar} JVM used to leave it running under init), or Lazarus itself. Once Lazarus has ended (or shortly
 * after, when Lazarus itself was killed), none of the recorded processes may be alive.
 */
class ProcessLifetimeIT {
    /** How long the job's processes may outlive a killed Lazarus: the kernel's parent-death signal, then a poll. */
    private static final long AFTER_LAZARUS_KILLED_SECONDS = 15;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{1} killed on {0}")
    @CsvSource({"mpj,launcher", "mpj,rank", "mpj,lazarus", "openmpi,launcher", "openmpi,rank", "openmpi,lazarus"})
    void noProcessOfTheJobOutlivesTheLaunch(String backend, String victim) throws Exception {
        RunningJob job = RunningJob.start(new String[] {"run", "--max-restarts", "0", "--np", "2", "--backend",
            backend, "--job", "life", "--nvm-dir", dir.resolve("nvm").toString(), "--timeout", "200", "solver.HEAT",
            "--class", "B"}, Map.of());
        Set<ProcessHandle> recorded = ConcurrentHashMap.newKeySet();
        Thread recorder = Thread.ofPlatform().daemon().start(() -> record(job.process(), recorded));
        try {
            ProcessHandle target = awaitVictim(job, victim);
            assertTrue(target.destroyForcibly(), "could not kill " + victim);
            String output = job.awaitEnd();
            recorder.join(10_000);
            if (victim.equals("lazarus")) {
                awaitAllEnded(recorded, AFTER_LAZARUS_KILLED_SECONDS);
            }
            List<String> survivors = recorded.stream().filter(ProcessLifetimeIT::running)
                    .map(p -> p.pid() + " " + p.info().commandLine().orElse("?")).toList();
            assertEquals(List.of(), survivors, output);
            // Open MPI: mpirun and the rank JVMs; MPJ: the ranks' one JVM at least.
            assertTrue(recorded.size() >= (backend.equals("mpj") ? 1 : 3), "recorded only " + recorded);
        } finally {
            recorder.interrupt();
            recorded.forEach(ProcessHandle::destroyForcibly); // the old launcher left them running
        }
    }

    /** Records every descendant of {@code lazarus} until it ends. */
    private static void record(Process lazarus, Set<ProcessHandle> recorded) {
        try {
            while (lazarus.isAlive()) {
                lazarus.descendants().forEach(recorded::add);
                Thread.sleep(50);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits until the job's rank JVMs run, then returns the process to kill. */
    private static ProcessHandle awaitVictim(RunningJob job, String victim) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (job.rankJvms().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertTrue(!job.rankJvms().isEmpty() && job.process().isAlive(), "the job did not start: " + job.output());
        Thread.sleep(1000); // past the rank JVM's start, into the computation
        return switch (victim) {
            case "rank" -> job.rankJvms().getFirst();
            case "launcher" -> job.process().children().findFirst().orElseThrow();
            case "lazarus" -> job.process().toHandle();
            default -> throw new IllegalArgumentException("victim=" + victim);
        };
    }

    /** Alive and not a zombie: a killed rank re-parented to init stays a zombie until init reaps it. */
    private static boolean running(ProcessHandle process) {
        return process.isAlive() && !ProcFiles.ended(process.pid());
    }

    private static void awaitAllEnded(Set<ProcessHandle> processes, long seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (processes.stream().anyMatch(ProcessLifetimeIT::running) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
    }
}
