package dev.lazarus.npb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.checkpoint.CheckpointSettings;
import dev.lazarus.easycrash.DataObject;
import dev.lazarus.easycrash.EasyCrash;
import dev.lazarus.easycrash.EasyCrashSettings;
import dev.lazarus.easycrash.ObjectRole;
import dev.lazarus.easycrash.Recomputable;
import dev.lazarus.easycrash.RecomputingRun;
import dev.lazarus.easycrash.RecomputingRun.Outcome;
import dev.lazarus.npb.testing.Applications;
import dev.lazarus.npb.testing.DelegatingRecomputable;
import dev.lazarus.mpi.testing.ThreadComm;
import dev.lazarus.verification.Verdict;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * EasyCrash off ({@code run --plain-arrays}): every application runs the same code on plain Java arrays, touches no
 * NVM, and computes exactly what it computes on the persistent heap (the verdicts, which print the verified values,
 * are identical), so the plain run is the baseline Lazarus's overhead is measured against.
 */
class PlainArraysTest {
    private static final String[] CLASS_S = {"--class", "S", "--quiet"};

    @TempDir
    Path dir;

    private final ByteArrayOutputStream text = new ByteArrayOutputStream();
    private final PrintStream log = new PrintStream(text, true, StandardCharsets.UTF_8);

    static Stream<String> applications() {
        return Applications.names().stream();
    }

    private EasyCrashSettings settings(boolean plain) {
        Properties p = new Properties();
        p.setProperty(EasyCrashSettings.NVM_DIR, dir.resolve(plain ? "nvm-plain" : "nvm").toString());
        p.setProperty(EasyCrashSettings.JOB_ID, "plain-test");
        p.setProperty(EasyCrashSettings.RESTART, "off");
        p.setProperty(EasyCrashSettings.EASYCRASH, plain ? "off" : "on");
        return new EasyCrashSettings(p, Map.of());
    }

    /** Runs {@code app} on two thread ranks and records every object it attached. */
    private List<Outcome> run(String app, boolean plain, CheckpointSettings checkpoints,
                              ConcurrentLinkedQueue<DataObject> attached) throws Exception {
        return ThreadComm.run(2, comm -> {
            Recomputable prepared = Applications.instance(app).prepare(comm, CLASS_S);
            Recomputable observed = new DelegatingRecomputable(prepared) {
                @Override
                public void attach(EasyCrash easyCrash) {
                    app.attach(easyCrash);
                    attached.addAll(easyCrash.objects().values());
                }
            };
            return RecomputingRun.run(comm, observed, settings(plain), checkpoints, null, log);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("applications")
    void theSameCodeOnPlainArraysComputesTheSameResultAndTouchesNoNvm(String app) throws Exception {
        ConcurrentLinkedQueue<DataObject> heapObjects = new ConcurrentLinkedQueue<>();
        List<Outcome> onHeap = run(app, false, null, heapObjects);
        ConcurrentLinkedQueue<DataObject> plainObjects = new ConcurrentLinkedQueue<>();
        List<Outcome> plain = run(app, true, null, plainObjects);

        for (int rank = 0; rank < 2; rank++) {
            assertTrue(plain.get(rank).verdict().accepted(), plain.get(rank).verdict().reason());
            assertEquals(onHeap.get(rank).verdict().reason(), plain.get(rank).verdict().reason(),
                    app + ": the plain run must compute exactly what the heap run computes");
            assertFalse(plain.get(rank).resumed());
        }
        assertFalse(heapObjects.isEmpty());
        for (DataObject object : heapObjects) {
            boolean heapRole = object.role() == ObjectRole.CANDIDATE || object.role() == ObjectRole.REINITIALIZED;
            assertEquals(heapRole, object.persistent(),
                    object.name() + " (" + object.role() + "): in the heap unless temporary or read-only");
        }
        assertTrue(heapObjects.stream().anyMatch(DataObject::persistent), "the candidates are in the heap");
        assertEquals(heapObjects.size(), plainObjects.size(), "the same objects are attached");
        assertTrue(plainObjects.stream().noneMatch(DataObject::persistent),
                "EasyCrash off: every object is a plain array");
        assertFalse(Files.exists(dir.resolve("nvm-plain")), "EasyCrash off creates nothing in NVM");
        assertTrue(text.toString().contains("lazarus: EasyCrash off"), text::toString);
    }

    @ParameterizedTest(name = "plain arrays: {0}")
    @ValueSource(booleans = {false, true})
    void theVerificationIsTimedApartFromTheMainLoop(boolean plain) throws Exception {
        List<Outcome> outcomes = ThreadComm.run(2, comm -> {
            Recomputable prepared = Applications.instance("solver.HEAT").prepare(comm, CLASS_S);
            Recomputable slowVerification = new DelegatingRecomputable(prepared) {
                @Override
                public void iterate(int iteration, EasyCrash easyCrash) {
                    // No work: the main loop takes next to no time.
                }

                @Override
                public Verdict verify() {
                    try {
                        Thread.sleep(comm.rank() == 0 ? 400 : 800);
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    return Verdict.accept("slept");
                }
            };
            return RecomputingRun.run(comm, slowVerification, settings(plain), null, null, log);
        });
        for (Outcome outcome : outcomes) {
            assertTrue(outcome.verdict().accepted(), outcome.verdict().reason());
            assertTrue(outcome.verificationSeconds() >= 0.8, "the slowest rank's verification: " + outcome);
            assertTrue(outcome.seconds() < 0.4, "the loop time leaves the verification out: " + outcome);
        }
    }

    @Test
    void plainArraysWithCheckpointsAreRefusedInOneLine() {
        Properties p = new Properties();
        p.setProperty(CheckpointSettings.JOB_ID, "plain-test");
        p.setProperty(CheckpointSettings.L1_DIR, dir.resolve("l1").toString());
        p.setProperty(CheckpointSettings.PFS_DIR, "off");
        p.setProperty(CheckpointSettings.EVERY, "2");
        CheckpointSettings checkpoints = new CheckpointSettings(p, Map.of()).conclude("npb.CG");
        Exception e = assertThrows(Exception.class, () -> run("npb.CG", true, checkpoints,
                new ConcurrentLinkedQueue<>()));
        Throwable cause = e;
        while (!(cause instanceof IllegalArgumentException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        assertTrue(cause.getMessage().contains("plain Java arrays, which are not checkpointed"), cause::toString);
        assertFalse(Files.exists(dir.resolve("l1")), "nothing was checkpointed");
    }
}
