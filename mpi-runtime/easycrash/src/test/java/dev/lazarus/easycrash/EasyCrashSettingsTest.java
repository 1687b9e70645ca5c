package dev.lazarus.easycrash;

import dev.lazarus.mpi.launch.ExitStatusFiles;
import dev.lazarus.mpi.launch.LaunchDirective;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EasyCrashSettingsTest {

    @Test
    void defaultsApplyWhenNothingIsSet() {
        EasyCrashSettings s = new EasyCrashSettings(new Properties(), Map.of()).conclude("npb.CG", 8192);
        assertEquals(Path.of(EasyCrashSettings.DEFAULT_NVM_DIR), s.nvmDirectory());
        assertEquals("npb.CG", s.jobId());
        assertEquals(8192, s.heapSize());
        assertTrue(s.planFile().isEmpty());
        assertTrue(s.restart());
        assertFalse(s.plainArrays());
    }

    @Test
    void easyCrashOffMeansPlainArraysAndCannotFollowAPlan() {
        EasyCrashSettings off = new EasyCrashSettings(new Properties(), Map.of("LAZARUS_EASYCRASH", "off"))
                .conclude("app", 1);
        assertTrue(off.plainArrays());
        Properties p = new Properties();
        p.setProperty(EasyCrashSettings.EASYCRASH, "off");
        p.setProperty(EasyCrashSettings.PLAN, "/tmp/plan.properties");
        assertEquals("lazarus.easycrash=off runs without a persistent heap, so it cannot follow the plan"
                        + " /tmp/plan.properties",
                assertThrows(IllegalArgumentException.class, () -> new EasyCrashSettings(p, Map.of())
                        .conclude("app", 1)).getMessage());
    }

    /** The coordinator's directive for this launch turns NVM restart off, and the reason is the one the ranks log. */
    @Test
    void aRollbackDirectiveTurnsNvmRestartOffWithTheCoordinatorsReason(@TempDir Path statusDir) throws Exception {
        Map<String, String> env = Map.of(ExitStatusFiles.ENV, statusDir.toString());
        EasyCrashSettings before = new EasyCrashSettings(new Properties(), env).conclude("app", 1);
        assertTrue(before.restart(), "no directive: NVM restart as always");
        assertNull(before.restartOffReason());
        LaunchDirective.write(statusDir, new LaunchDirective(true, "L1 v800 expected 41.0 s"));
        EasyCrashSettings after = new EasyCrashSettings(new Properties(), env).conclude("app", 1);
        assertFalse(after.restart());
        assertEquals("the coordinator chose rollback: L1 v800 expected 41.0 s", after.restartOffReason());
        LaunchDirective.write(statusDir, LaunchDirective.none());
        assertTrue(new EasyCrashSettings(new Properties(), env).conclude("app", 1).restart());
        EasyCrashSettings off = new EasyCrashSettings(new Properties(), Map.of("LAZARUS_NVM_RESTART", "off"))
                .conclude("app", 1);
        assertEquals("NVM restart is off", off.restartOffReason());
    }

    @Test
    void systemPropertyWinsOverEnvironment() {
        Properties p = new Properties();
        p.setProperty(EasyCrashSettings.JOB_ID, "from-property");
        EasyCrashSettings s = new EasyCrashSettings(p, Map.of("LAZARUS_JOB_ID", "from-env",
                "LAZARUS_HEAP_SIZE", "1m", "LAZARUS_NVM_RESTART", "off")).conclude("app", 4096);
        assertEquals("from-property", s.jobId());
        assertEquals(1 << 20, s.heapSize());
        assertFalse(s.restart());
    }

    @Test
    void badValuesAreRefusedInOneLine() {
        assertEquals("lazarus.nvm.heap.size=12q is not a positive size such as 512m",
                assertThrows(IllegalArgumentException.class, () -> new EasyCrashSettings(new Properties(),
                        Map.of("LAZARUS_HEAP_SIZE", "12q")).conclude("app", 1)).getMessage());
        assertEquals("lazarus.nvm.heap.size=1k is smaller than the 8192 bytes app needs",
                assertThrows(IllegalArgumentException.class, () -> new EasyCrashSettings(new Properties(),
                        Map.of("LAZARUS_HEAP_SIZE", "1k")).conclude("app", 8192)).getMessage());
        assertEquals("lazarus.nvm.restart=maybe must be auto or off",
                assertThrows(IllegalArgumentException.class, () -> new EasyCrashSettings(new Properties(),
                        Map.of("LAZARUS_NVM_RESTART", "maybe")).conclude("app", 1)).getMessage());
        assertEquals("lazarus.easycrash=no must be on or off",
                assertThrows(IllegalArgumentException.class, () -> new EasyCrashSettings(new Properties(),
                        Map.of("LAZARUS_EASYCRASH", "no")).conclude("app", 1)).getMessage());
    }
}
