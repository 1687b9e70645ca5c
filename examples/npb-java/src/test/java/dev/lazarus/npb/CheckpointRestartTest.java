package dev.lazarus.npb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.checkpoint.CheckpointSettings;
import dev.lazarus.easycrash.EasyCrash;
import dev.lazarus.easycrash.EasyCrashSettings;
import dev.lazarus.easycrash.Recomputable;
import dev.lazarus.easycrash.RecomputingRun;
import dev.lazarus.easycrash.RecomputingRun.Outcome;
import dev.lazarus.npb.cg.CgKernel;
import dev.lazarus.mpi.testing.ThreadComm;
import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.verification.Verdict;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CG class S on two thread ranks, checkpointed to L1 and L3 every 4 iterations, crashes at iteration 11. NVM restart
 * is off, so each relaunch must come back from the checkpoint levels: version 8 from L1, then, with L1 wiped, from
 * L3, and the run must pass NPB's verification. A finished run leaves no checkpoints behind.
 */
class CheckpointRestartTest {
    private static final String[] CLASS_S = {"--class", "S", "--quiet"};
    private static final String JOB = "cg-ckpt";

    @TempDir
    Path dir;

    /** Throws at the start of iteration {@code crashAt}, as a killed job stops. */
    record Crashing(Recomputable app, int crashAt) implements Recomputable {
        public String application() {
            return app.application();
        }

        public String signature() {
            return app.signature();
        }

        public List<String> regions() {
            return app.regions();
        }

        public long heapBytes() {
            return app.heapBytes();
        }

        public void attach(EasyCrash easyCrash) {
            app.attach(easyCrash);
        }

        public void initialize(boolean fresh) {
            app.initialize(fresh);
        }

        public int iterations() {
            return app.iterations();
        }

        public void iterate(int iteration, EasyCrash easyCrash) {
            if (iteration == crashAt) {
                throw new IllegalStateException("simulated crash at iteration " + iteration);
            }
            app.iterate(iteration, easyCrash);
        }

        public Verdict verify() {
            return app.verify();
        }
    }

    private EasyCrashSettings nvm() {
        Properties p = new Properties();
        p.setProperty(EasyCrashSettings.NVM_DIR, dir.resolve("nvm").toString());
        p.setProperty(EasyCrashSettings.JOB_ID, JOB);
        p.setProperty(EasyCrashSettings.RESTART, "off");
        return new EasyCrashSettings(p, Map.of());
    }

    private CheckpointSettings levels() {
        Properties p = new Properties();
        p.setProperty(CheckpointSettings.JOB_ID, JOB);
        p.setProperty(CheckpointSettings.L1_DIR, dir.resolve("l1").toString());
        p.setProperty(CheckpointSettings.PFS_DIR, dir.resolve("pfs").toString());
        p.setProperty(CheckpointSettings.PFS_EVERY, "1");
        p.setProperty(CheckpointSettings.EVERY, "4");
        return new CheckpointSettings(p, Map.of()).conclude("npb.CG");
    }

    private List<Outcome> run(int crashAt, PrintStream log) throws Exception {
        return ThreadComm.run(2, comm -> {
            CgKernel kernel = new CgKernel();
            Recomputable app = kernel.prepare(comm, CLASS_S);
            return RecomputingRun.run(comm, crashAt > 0 ? new Crashing(app, crashAt) : app, nvm(), levels(), null,
                    log);
        });
    }

    @Test
    void aCrashedRunComesBackFromL1ThenFromThePfs() throws Exception {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        PrintStream log = new PrintStream(text, true, StandardCharsets.UTF_8);
        Exception crash = assertThrows(Exception.class, () -> run(11, log));
        assertTrue(String.valueOf(crash.getMessage()).contains("simulated crash at iteration 11")
                || String.valueOf(crash.getCause()).contains("simulated crash at iteration 11"), crash::toString);
        CheckpointDirectory l1 = new CheckpointDirectory(dir.resolve("l1"), JOB);
        CheckpointDirectory pfs = new CheckpointDirectory(dir.resolve("pfs"), JOB);
        assertEquals(List.of(4L, 8L), l1.versions());
        assertEquals(List.of(4L, 8L), pfs.versions());

        // Relaunch, crash again at 11: restored from L1 at 8.
        text.reset();
        assertThrows(Exception.class, () -> run(11, log));
        assertTrue(text.toString().contains("checkpoint restart: restored version 8 from L1, resuming at iteration 9"),
                text::toString);

        // The node's RAM disk is gone: version 8 comes from the PFS, and the run finishes and verifies.
        wipe(dir.resolve("l1"));
        text.reset();
        for (Outcome outcome : run(0, log)) {
            assertTrue(outcome.verdict().accepted(), outcome.verdict().reason());
            assertEquals(9, outcome.firstIteration());
            assertTrue(outcome.resumed());
        }
        assertTrue(text.toString().contains("checkpoint restart: restored version 8 from L3"), text::toString);
        assertEquals(List.of(), pfs.versions(), "a finished run releases its checkpoints");
        assertFalse(Files.exists(l1.versionDirectory(8)));
    }

    /**
     * The report (the NPB result a user reads) is handed out before the run records its result as accepted and
     * releases its checkpoints: a rank killed after that record ends the job as verified, and the report must be out.
     */
    @Test
    void theReportComesBeforeTheRunReleasesItsCheckpoints() throws Exception {
        CheckpointDirectory pfs = new CheckpointDirectory(dir.resolve("pfs"), JOB);
        List<String> heldAtReport = new CopyOnWriteArrayList<>();
        List<Outcome> outcomes = ThreadComm.run(2, comm -> {
            Recomputable app = new CgKernel().prepare(comm, CLASS_S);
            return RecomputingRun.run(comm, app, nvm(), levels(), null, null, outcome -> {
                try {
                    heldAtReport.add(outcome.verdict().accepted() + " " + pfs.versions());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        });
        for (Outcome outcome : outcomes) {
            assertTrue(outcome.verdict().accepted(), outcome.verdict().reason());
        }
        assertEquals(2, heldAtReport.size(), "one report per rank: " + heldAtReport);
        for (String held : heldAtReport) {
            assertTrue(held.startsWith("true [") && !held.endsWith("[]"), "checkpoints still held: " + held);
        }
        assertEquals(List.of(), pfs.versions(), "released after the report");
    }

    private static void wipe(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
