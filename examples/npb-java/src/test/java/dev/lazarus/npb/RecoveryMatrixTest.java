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
import dev.lazarus.npb.testing.Applications;
import dev.lazarus.npb.testing.DelegatingRecomputable;
import dev.lazarus.mpi.testing.ThreadComm;
import dev.lazarus.store.catalog.Catalog;
import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.verification.Verdict;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The recovery matrix inside one JVM: every registered application (CG, MG, FT, IS, EP, solver.HEAT) at class S on
 * two thread ranks, checkpointed to L1 and L3 every fifth of its iterations, crashed right after its second version,
 * then relaunched through every recovery path. Each cell must end with an accepted verdict, from the path the log
 * names, and a checkpoint restart must restore the newest version every rank reached. The same paths with real
 * processes killed by SIGKILL, on both MPI backends, are {@code scripts/recovery-matrix}.
 */
class RecoveryMatrixTest {
    private static final String[] CLASS_S = {"--class", "S", "--quiet"};
    private static final Pattern RESTORED = Pattern.compile("checkpoint restart: restored version (\\d+) from (L\\d)");

    @TempDir
    Path dir;

    private final ByteArrayOutputStream text = new ByteArrayOutputStream();
    private final PrintStream log = new PrintStream(text, true, StandardCharsets.UTF_8);

    /** The recovery paths of issue 13's matrix. */
    enum RecoveryPath {
        NVM_RESTART, NVM_WIPED_L1, NVM_AND_L1_WIPED_L3, NVM_REJECTED_ROLLBACK, SECOND_CRASH_AFTER_RESTORE,
        RESUMED_RUN_THROWS
    }

    static Stream<Arguments> cells() {
        return Applications.names().stream()
                .flatMap(app -> Stream.of(RecoveryPath.values()).map(path -> Arguments.of(app, path)));
    }

    /** What one launch does besides running the application. */
    record Script(int crashAt, boolean throwWhenResumed, boolean rejectResumed, int resumedConvergesAt,
                  CheckpointDirectory crashOnceOn) {
        static final Script NORMAL = new Script(0, false, false, 0, null);

        Script(int crashAt, boolean throwWhenResumed, boolean rejectResumed) {
            this(crashAt, throwWhenResumed, rejectResumed, 0, null);
        }

        Script(int crashAt, boolean throwWhenResumed, boolean rejectResumed, int resumedConvergesAt) {
            this(crashAt, throwWhenResumed, rejectResumed, resumedConvergesAt, null);
        }

        static Script crashAt(int iteration) {
            return new Script(iteration, false, false);
        }
    }

    /** The application under a {@link Script}: a crash at an iteration, or failures of a resumed run. */
    static final class Scripted extends DelegatingRecomputable {
        private final Script script;
        private boolean resumed;
        private int last;

        Scripted(Recomputable app, Script script) {
            super(app);
            this.script = script;
        }

        @Override
        public void iterate(int iteration, EasyCrash easyCrash) {
            resumed = easyCrash.resuming();
            last = iteration;
            if (iteration == script.crashAt()) {
                awaitCompleteVersion(script.crashOnceOn());
                throw new IllegalStateException("simulated crash at iteration " + iteration);
            }
            if (script.throwWhenResumed() && easyCrash.resuming()) {
                throw new ArrayIndexOutOfBoundsException("simulated garbage index in a resumed run");
            }
            app.iterate(iteration, easyCrash);
        }

        /** Waits (bounded) until {@code level} holds a complete version: the drain runs at background priority. */
        private static void awaitCompleteVersion(CheckpointDirectory level) {
            long deadline = System.nanoTime() + 60_000_000_000L;
            try {
                while (level != null && new Catalog(level).newestComplete(false).isEmpty()
                        && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public Verdict verify() {
            Verdict verdict = app.verify();
            if (resumed && last < script.resumedConvergesAt()) {
                return Verdict.reject("simulated: not converged yet at iteration " + last);
            }
            return script.rejectResumed() && resumed ? Verdict.reject("simulated rejection of the resumed run")
                    : verdict;
        }
    }

    private EasyCrashSettings nvm(String job, boolean restart) {
        Properties p = new Properties();
        p.setProperty(EasyCrashSettings.NVM_DIR, dir.resolve("nvm").toString());
        p.setProperty(EasyCrashSettings.JOB_ID, job);
        p.setProperty(EasyCrashSettings.RESTART, restart ? "auto" : "off");
        return new EasyCrashSettings(p, Map.of());
    }

    private CheckpointSettings levels(String job, String app, int every) {
        Properties p = new Properties();
        p.setProperty(CheckpointSettings.JOB_ID, job);
        p.setProperty(CheckpointSettings.L1_DIR, dir.resolve("l1").toString());
        p.setProperty(CheckpointSettings.PFS_DIR, dir.resolve("pfs").toString());
        p.setProperty(CheckpointSettings.PFS_EVERY, "1");
        p.setProperty(CheckpointSettings.EVERY, Integer.toString(every));
        return new CheckpointSettings(p, Map.of()).conclude(app);
    }

    /** One launch of {@code app} on two thread ranks. */
    private List<Outcome> launch(String app, String job, int every, boolean nvmRestart, Script script)
            throws Exception {
        return ThreadComm.run(2, comm -> {
            Recomputable prepared = Applications.instance(app).prepare(comm, CLASS_S);
            return RecomputingRun.run(comm, new Scripted(prepared, script), nvm(job, nvmRestart),
                    levels(job, app, every), null, log);
        });
    }

    private static int iterations(String app) {
        return Applications.instance(app).prepare(new dev.lazarus.mpi.local.SingleRankComm(), CLASS_S).iterations();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cells")
    void everyApplicationRecoversOnEveryPath(String app, RecoveryPath path) throws Exception {
        int n = iterations(app);
        int every = Math.max(1, n / 5);
        int crashAt = 2 * every + 1; // versions every and 2*every are written, then the job dies
        long newest = 2L * every;
        String job = (app + "-" + path).toLowerCase().replace('_', '-');
        // On the L3 path the crash waits until L3 holds a complete version, as a kill once a version is there.
        CheckpointDirectory pfsLevel = new CheckpointDirectory(dir.resolve("pfs"), job);
        Script crash = path == RecoveryPath.NVM_AND_L1_WIPED_L3 ? new Script(crashAt, false, false, 0, pfsLevel)
                : Script.crashAt(crashAt);
        assertThrows(Exception.class, () -> launch(app, job, every, true, crash));
        CheckpointDirectory l1 = new CheckpointDirectory(dir.resolve("l1"), job);
        assertEquals(newest, l1.versions().getLast(), "the crashed run's newest version");
        String crashLog = text.toString();
        text.reset();
        List<Outcome> outcomes = switch (path) {
            case NVM_RESTART -> nvmRestart(app, job, every);
            case NVM_WIPED_L1 -> {
                wipe(dir.resolve("nvm"));
                List<Outcome> o = launch(app, job, every, true, Script.NORMAL);
                assertRestored(newest, "L1");
                yield o;
            }
            case NVM_AND_L1_WIPED_L3 -> {
                // The drain may not have copied the newest version when the job died, and a crashed launch's drain
                // thread may still finish it meanwhile: at least the newest complete on L3 now, at most the newest.
                Catalog pfs = new Catalog(new CheckpointDirectory(dir.resolve("pfs"), job));
                var complete = pfs.newestComplete(true);
                String found = pfs.scan(false).toString();
                assertTrue(complete.isPresent(), () -> "no complete version on L3: " + found + "\n" + crashLog);
                long onL3 = complete.get().version();
                wipe(dir.resolve("nvm"));
                wipe(dir.resolve("l1"));
                List<Outcome> o = launch(app, job, every, true, Script.NORMAL);
                assertRestored(onL3, newest, "L3");
                yield o;
            }
            case NVM_REJECTED_ROLLBACK -> rejectedThenRollback(app, job, every, newest);
            case SECOND_CRASH_AFTER_RESTORE -> secondCrashAfterRestore(app, job, every, crashAt);
            case RESUMED_RUN_THROWS -> resumedRunThrows(app, job, every, newest);
        };
        for (Outcome outcome : outcomes) {
            assertTrue(outcome.verdict().accepted(), app + " " + path + ": " + outcome.verdict().reason() + "\n"
                    + text);
        }
        assertEquals(List.of(), l1.versions(), "a finished run releases its checkpoints");
    }

    /** NVM restart: resumed and accepted, or rejected and rolled back to the newest checkpoint (as FT and EP are). */
    private List<Outcome> nvmRestart(String app, String job, int every) throws Exception {
        List<Outcome> outcomes = launch(app, job, every, true, Script.NORMAL);
        assertTrue(text.toString().contains("NVM restart: resuming at iteration"), text::toString);
        Outcome outcome = outcomes.getFirst();
        if (outcome.rolledBack()) {
            assertTrue(text.toString().contains("NVM restart failed acceptance verification"), text::toString);
            assertRestored(2L * every, "L1");
        } else {
            assertTrue(outcome.resumed(), text::toString);
        }
        return outcomes;
    }

    /**
     * The resumed run writes versions of its own, then its acceptance check rejects: the rollback must restore the
     * newest version written before the crash (retention kept it), never one the rejected run wrote.
     */
    private List<Outcome> rejectedThenRollback(String app, String job, int every, long newest) throws Exception {
        List<Outcome> outcomes = launch(app, job, every, true, new Script(0, false, true));
        String out = text.toString();
        assertTrue(out.contains("NVM restart: resuming at iteration"), out);
        assertTrue(out.contains("NVM restart failed acceptance verification (simulated rejection"), out);
        assertRestored(newest, "L1");
        assertTrue(outcomes.getFirst().rolledBack(), out);
        return outcomes;
    }

    /** A crash right after a checkpoint restore; the next launch restores the newest version every rank reached. */
    private List<Outcome> secondCrashAfterRestore(String app, String job, int every, int crashAt) throws Exception {
        wipe(dir.resolve("nvm"));
        assertThrows(Exception.class, () -> launch(app, job, every, true, Script.crashAt(crashAt + 1)));
        assertRestored(2L * every, "L1");
        long reached = (long) crashAt / every * every; // iteration crashAt finished before the second crash
        wipe(dir.resolve("nvm"));
        text.reset();
        List<Outcome> outcomes = launch(app, job, every, true, Script.NORMAL);
        assertRestored(reached, "L1");
        return outcomes;
    }

    /**
     * The resumed run throws (garbage in NVM): the attempt is recorded, and the next launch rolls back to the newest
     * checkpoint instead of resuming the same state again.
     */
    private List<Outcome> resumedRunThrows(String app, String job, int every, long newest) throws Exception {
        Exception failed = assertThrows(Exception.class,
                () -> launch(app, job, every, true, new Script(0, true, false)));
        assertTrue(String.valueOf(failed).contains("the next launch rolls back")
                || String.valueOf(failed.getCause()).contains("the next launch rolls back"), failed::toString);
        text.reset();
        List<Outcome> outcomes = launch(app, job, every, true, Script.NORMAL);
        String out = text.toString();
        assertTrue(out.contains("NVM state unusable -> rollback: rank 0: an earlier NVM restart of this state failed"),
                out);
        assertFalse(out.contains("NVM restart: resuming"), out);
        assertRestored(newest, "L1");
        return outcomes;
    }

    /**
     * EasyCrash's S2: a resumed run that is not accepted at its last iteration iterates on (up to maxIterations) and
     * is accepted once it converges, as the campaign that predicted its recomputability counts it; no rollback.
     */
    @org.junit.jupiter.api.Test
    void aResumedRunThatNeedsExtraIterationsIsAcceptedWithoutARollback() throws Exception {
        String app = "solver.HEAT";
        int n = iterations(app);
        int every = Math.max(1, n / 5);
        assertThrows(Exception.class, () -> launch(app, "heat-s2", every, true, Script.crashAt(2 * every + 1)));
        text.reset();
        List<Outcome> outcomes = launch(app, "heat-s2", every, true, new Script(0, false, false, n + 2));
        for (Outcome outcome : outcomes) {
            assertTrue(outcome.verdict().accepted() && outcome.resumed() && !outcome.rolledBack(), text::toString);
        }
        assertTrue(text.toString().contains("NVM restart: accepted after 2 extra iterations"), text::toString);
    }

    private void assertRestored(long version, String level) {
        assertRestored(version, version, level);
    }

    private void assertRestored(long low, long high, String level) {
        Matcher m = RESTORED.matcher(text.toString());
        assertTrue(m.find(), text::toString);
        long version = Long.parseLong(m.group(1));
        assertTrue(version >= low && version <= high, () -> "restored " + version + ", not " + low + " to " + high
                + ":\n" + text);
        assertEquals(level, m.group(2), text::toString);
    }

    private static void wipe(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
