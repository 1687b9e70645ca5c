package dev.lazarus.coordinator.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.coordinator.launch.Backend;
import dev.lazarus.coordinator.launch.HaltCheck;
import dev.lazarus.coordinator.launch.LaunchOutcome;
import dev.lazarus.coordinator.launch.LaunchPlan;
import dev.lazarus.coordinator.launch.LaunchRequest;
import dev.lazarus.coordinator.state.HaltRequest;
import dev.lazarus.coordinator.state.StateFiles;
import dev.lazarus.coordinator.state.StateRecords;
import dev.lazarus.coordinator.state.StateSnapshot;
import dev.lazarus.mpi.launch.HangWatch;
import dev.lazarus.mpi.launch.LaunchDirective;
import dev.lazarus.mpi.launch.RankMain;
import dev.lazarus.recovery.policy.failure.RecoveryMode;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lazarus halt} as the coordinator sees it: when a request is due, how a halt ends a run, and the resume. */
class HaltTest {
    private static final LaunchPlan PLAN = new LaunchPlan(new LaunchRequest(2, Backend.OPENMPI, null, null, null,
            List.of(), List.of(), "npb.CG", List.of(), null), List.of("mpirun"), Map.of());
    private static final JobDescription JOB = new JobDescription("cg", "npb.CG", List.of(), 2, List.of("n1"));

    @TempDir
    Path dir;
    private StateFiles files;
    private final ByteArrayOutputStream text = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(text, true, StandardCharsets.UTF_8);
    private final List<LaunchDirective> directives = new ArrayList<>();
    private final List<HaltCheck.Halt> seen = new ArrayList<>();

    @BeforeEach
    void setUp() {
        files = new StateFiles(dir.resolve("state"), "cg");
    }

    private JobOptions options(boolean checkpointing) {
        return new JobOptions(10, RecoveryMode.AUTO, new HangWatch(null), checkpointing
                ? RestoreSources.of(dir.resolve("l1"), null, "cg", true) : RestoreSources.none(), null, true);
    }

    /** Runs the coordinator over scripted launches, noting each launch's directive and the halt due as it ran. */
    private int run(JobOptions options, LaunchOutcome... script) throws Exception {
        Deque<LaunchOutcome> outcomes = new ArrayDeque<>(List.of(script));
        return new JobCoordinator((plan, directive, hangs, halts, watcher) -> {
            directives.add(directive);
            seen.add(halts.due());
            return outcomes.removeFirst();
        }, options, JOB, files, StateCluster.atFirstFailure(() -> {
            throw new AssertionError("no failure, no cluster");
        }), JobHosts.THIS_HOST, err).run(PLAN);
    }

    private static LaunchOutcome ended(LaunchOutcome.Kind kind, int status, List<Integer> silent) {
        return new LaunchOutcome(kind, status, silent, null, List.of(Optional.empty(), Optional.empty()), 3.0);
    }

    private String state() throws Exception {
        return StateSnapshot.read(files).job().map(StateRecords.Job::state).orElseThrow();
    }

    @Test
    void aHaltAfterACheckpointEndsTheRunAndTheSameCommandResumesFromTheCheckpoint() throws Exception {
        new HaltRequest(false, 0, 0).post(files);
        assertEquals(RankMain.HALTED, run(options(true), ended(LaunchOutcome.Kind.HALTED, RankMain.HALTED,
                List.of())));
        assertEquals(List.of(HaltCheck.Halt.AFTER_CHECKPOINT), seen);
        assertEquals(1, directives.size(), "a halt is not relaunched");
        assertEquals("halted", state());
        assertTrue(HaltRequest.read(files).isEmpty(), "the request is used up");

        assertEquals(0, run(options(true), ended(LaunchOutcome.Kind.SUCCEEDED, 0, List.of())));
        assertEquals(HaltCheck.Halt.NONE, seen.get(1));
        assertTrue(directives.get(1).rollBack(), "the resume restores the checkpoint rather than NVM's state");
        assertTrue(directives.get(1).reason().contains("resuming the halted job"), directives.toString());
        assertEquals("succeeded", state());
    }

    @Test
    void aHaltNowResumesFromNvmAndAJobWithoutCheckpointsHaltsAtOnce() throws Exception {
        new HaltRequest(false, 0, 0).post(files);
        assertEquals(RankMain.HALTED, run(options(false), ended(LaunchOutcome.Kind.HALTED, RankMain.HALTED,
                List.of(0, 1))));
        assertEquals(List.of(HaltCheck.Halt.NOW), seen, "no checkpoint to stop after");
        assertTrue(text.toString(StandardCharsets.UTF_8).contains("the job takes no checkpoints, so it stops now"));
        assertEquals("halted now", state());
        assertEquals(0, run(options(true), ended(LaunchOutcome.Kind.SUCCEEDED, 0, List.of())));
        assertFalse(directives.get(1).rollBack(), "killed mid-iteration: NVM holds the newest state");
    }

    @Test
    void aRequestTakesEffectAtItsTimeAndOneLeftWhenTheJobEndsIsWithdrawn() throws Exception {
        HaltRequests halts = new HaltRequests(files, true, err);
        assertEquals(HaltCheck.Halt.NONE, halts.due(), "no request");
        new HaltRequest(false, System.currentTimeMillis() + 60_000, 0).post(files);
        assertEquals(HaltCheck.Halt.NONE, halts.due(), "--after 60: not yet");
        new HaltRequest(true, 0, 0).post(files);
        assertEquals(HaltCheck.Halt.NOW, halts.due());

        new HaltRequest(false, System.currentTimeMillis() + 60_000, 0).post(files);
        assertEquals(0, run(options(true), ended(LaunchOutcome.Kind.SUCCEEDED, 0, List.of())));
        assertTrue(HaltRequest.read(files).isEmpty(), "it must not stop the next run");
        assertTrue(text.toString(StandardCharsets.UTF_8).contains("the pending halt request was withdrawn"));
    }

    @Test
    void aRequestThatIsNotOneIsIgnoredWithOneLine() throws Exception {
        HaltRequests halts = new HaltRequests(files, true, err);
        Files.createDirectories(files.jobDirectory());
        Files.writeString(files.jobDirectory().resolve(HaltRequest.FILE), "{\"now\": \"maybe\"}");
        assertEquals(HaltCheck.Halt.NONE, halts.due());
        assertEquals(HaltCheck.Halt.NONE, halts.due());
        String said = text.toString(StandardCharsets.UTF_8);
        assertTrue(said.startsWith("lazarus: halt request ignored: "), said);
        assertEquals(1, said.lines().count(), "said once: " + said);
        Files.delete(files.jobDirectory().resolve(HaltRequest.FILE));
        Files.createSymbolicLink(files.jobDirectory().resolve(HaltRequest.FILE), dir.resolve("elsewhere"));
        assertEquals(HaltCheck.Halt.NONE, halts.due(), "a link is never followed");
    }
}
