package dev.lazarus.npb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.easycrash.EasyCrashSettings;
import dev.lazarus.easycrash.Recomputable;
import dev.lazarus.easycrash.RecomputableApplication;
import dev.lazarus.easycrash.RecomputingRun;
import dev.lazarus.easycrash.RecomputingRun.Outcome;
import dev.lazarus.mpi.testing.ThreadComm;
import dev.lazarus.npb.testing.Applications;
import dev.lazarus.npb.testing.KernelRuns;
import dev.lazarus.npb.testing.TestNvm;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every application runs through the one shared driver, {@link RecomputingRun#runApplication}: a run announces itself
 * (header, progress lines) and reports (NPB's report, the verdict) on rank 0 only, while the same application prepared
 * for a crash-test campaign prints nothing, even without {@code --quiet}.
 */
class ApplicationRunnerTest {
    private static final String[] CLASS_S = {"--class", "S"};

    @TempDir
    Path nvm;

    private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    private PrintStream original;

    static Stream<String> applications() {
        return Applications.names().stream();
    }

    /** Kernels write to standard output as NPB's do; the stream is captured before any kernel is made. */
    @BeforeEach
    void captureStandardOutput() {
        original = System.out;
        System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreStandardOutput() {
        System.setOut(original);
    }

    private String printed() {
        return stdout.toString(StandardCharsets.UTF_8);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("applications")
    void aRunPrintsItsHeaderAndOneReportFromRankZero(String app) throws Exception {
        List<Outcome> outcomes = ThreadComm.run(2, comm -> KernelRuns.outcome(comm, Applications.instance(app),
                TestNvm.settings(nvm, "runner"), CLASS_S));
        for (Outcome outcome : outcomes) {
            assertTrue(outcome.verdict().accepted(), outcome.verdict().reason());
            assertFalse(outcome.resumed());
        }
        String text = printed();
        String kernel = app.substring(app.indexOf('.') + 1);
        assertEquals(1, count(text, " " + kernel + " Benchmark Completed."), text);
        assertEquals(1, count(text, "Verification    =               SUCCESSFUL"), text);
        assertFalse(text.substring(0, text.indexOf(" " + kernel + " Benchmark Completed.")).isBlank(),
                "the run announced itself (header or progress lines) before its report: " + text);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("applications")
    void anApplicationPreparedForACampaignPrintsNothing(String app) throws Exception {
        List<Outcome> outcomes = ThreadComm.run(1, comm -> {
            RecomputableApplication application = Applications.instance(app);
            Recomputable prepared = application.prepare(comm, CLASS_S);
            EasyCrashSettings settings = TestNvm.settings(nvm, "campaign");
            return RecomputingRun.run(comm, prepared, settings, null, null, null);
        });
        assertTrue(outcomes.get(0).verdict().accepted(), outcomes.get(0).verdict().reason());
        assertEquals("", printed(), app + " printed while prepared for a campaign");
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int at = text.indexOf(what); at >= 0; at = text.indexOf(what, at + 1)) {
            n++;
        }
        return n;
    }
}
