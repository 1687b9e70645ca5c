package dev.lazarus.testing;

import dev.lazarus.mpi.launch.RankProcesses;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A running {@code ./lazarus} job whose output is collected line by line, for tests that kill its ranks.
 *
 * @param process the {@code ./lazarus} process
 * @param output  everything printed so far
 * @param reader  the thread collecting the output
 */
public record RunningJob(Process process, StringBuilder output, Thread reader) {

    /**
     * Starts the job and returns once rank 0 reported its NVM decision (or the job ended).
     *
     * @param environment variables added to the job's environment
     */
    public static RunningJob start(String[] args, Map<String, String> environment) throws Exception {
        RunningJob job = begin(args, environment);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        synchronized (job.output) {
            while (job.output.indexOf("lazarus: NVM ") < 0 && job.process.isAlive() && System.nanoTime() < deadline) {
                job.output.wait(100);
            }
        }
        return job;
    }

    /**
     * Starts the job and returns at once (before its ranks exist).
     *
     * @param environment variables added to the job's environment
     */
    public static RunningJob begin(String[] args, Map<String, String> environment) throws Exception {
        List<String> command = new ArrayList<>(List.of(LazarusProcess.home().resolve("lazarus").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("LAZARUS_NO_BUILD", "1");
        builder.environment().putAll(environment);
        Process process = builder.start();
        StringBuilder output = new StringBuilder();
        Thread reader = Thread.ofPlatform().start(() -> {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    synchronized (output) {
                        output.append(line).append('\n');
                        output.notifyAll();
                    }
                }
            } catch (java.io.IOException ignored) {
                // the process ended
            }
        });
        return new RunningJob(process, output, reader);
    }

    /** Waits for the job to end and returns everything it printed. */
    public String awaitEnd() throws Exception {
        check(process.waitFor(240, TimeUnit.SECONDS), "the job did not end");
        reader.join(10_000);
        synchronized (output) {
            return output.toString();
        }
    }

    /**
     * Starts a two-rank job with every version drained to L3, waits until both ranks' manifests of a version of at
     * least {@code version} are on L1 and L3, SIGKILLs one rank, and waits for the job to fail.
     *
     * @return the newest version both levels held at the kill
     */
    public static long killOnceVersionIsEverywhere(String[] args, Path l1Job, Path pfsJob, long version)
            throws Exception {
        RunningJob running = start(args, Map.of("LAZARUS_CKPT_PFS_EVERY", "1"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        long newest = -1;
        while (newest < version) {
            check(running.process().isAlive() && System.nanoTime() < deadline,
                    "no version " + version + " on both levels: " + running.outputNow());
            newest = Math.min(JobFiles.newestComplete(l1Job), JobFiles.newestComplete(pfsJob));
            Thread.sleep(5);
        }
        running.killOneRank();
        return newest;
    }

    /** SIGKILLs one rank JVM, waits for the job and its ranks to end, and checks that the job failed. */
    public void killOneRank() throws Exception {
        List<ProcessHandle> ranks = rankJvms();
        check(!ranks.isEmpty() && ranks.getFirst().destroyForcibly(), "no rank to kill");
        String text = awaitEnd();
        for (ProcessHandle rank : ranks) {
            rank.onExit().get(60, TimeUnit.SECONDS);
        }
        check(process.exitValue() != 0, "a killed job must fail: " + text);
    }

    /** @return everything printed so far */
    public String outputNow() {
        synchronized (output) {
            return output.toString();
        }
    }

    /** @return the rank JVMs of the job running now */
    public List<ProcessHandle> rankJvms() {
        return RankProcesses.under(process.toHandle());
    }

    /** Fails the test with {@code message} unless {@code condition} holds. */
    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new AssertionError(message);
        }
    }
}
