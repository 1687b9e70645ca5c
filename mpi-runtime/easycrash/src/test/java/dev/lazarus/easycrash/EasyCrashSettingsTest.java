package dev.lazarus.easycrash;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
