package dev.lazarus.store.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SettingSourceTest {

    @Test
    void oneRuleFromPropertyToEnvironmentName() {
        assertEquals("LAZARUS_CKPT_L2_SET_SIZE", Settings.CKPT_L2_SET_SIZE.environment());
        assertEquals("LAZARUS_NVM_HEAP_SIZE", Settings.NVM_HEAP_SIZE.environment());
        assertEquals("LAZARUS_JOB_ID", Settings.JOB_ID.environment());
        assertThrows(IllegalArgumentException.class, () -> new Setting("ckpt.every", "0", List.of()));
    }

    @Test
    void everySettingHasItsOwnNamesAndNoOldNameShadowsANewOne() {
        Set<String> properties = new HashSet<>();
        Set<String> environment = new HashSet<>();
        for (Setting setting : Settings.ALL) {
            assertTrue(properties.add(setting.property()), setting.property());
            assertTrue(environment.add(setting.environment()), setting.environment());
        }
        for (Setting setting : Settings.ALL) {
            for (String old : setting.deprecatedEnvironment()) {
                assertFalse(environment.contains(old), old + " is a current name");
            }
        }
    }

    @Test
    void propertyThenEnvironmentThenTheDeprecatedNameWithOneLine() {
        List<String> lines = new ArrayList<>();
        Properties properties = new Properties();
        SettingSource source = new SettingSource(properties, Map.of("LAZARUS_HEAP_SIZE", "1m",
                "LAZARUS_CKPT_L2_SET_SIZE", " 4 ", "LAZARUS_L2_SET_SIZE", "6", "LAZARUS_PLAN", "  "), lines::add);
        assertEquals(Optional.of("1m"), source.text(Settings.NVM_HEAP_SIZE));
        assertEquals(Optional.of("1m"), source.text(Settings.NVM_HEAP_SIZE));
        assertEquals(List.of("lazarus: LAZARUS_HEAP_SIZE is deprecated and goes in the next release; use"
                + " LAZARUS_NVM_HEAP_SIZE (lazarus.nvm.heap.size)"), lines, "one line per old name");
        assertEquals(4, source.integer(Settings.CKPT_L2_SET_SIZE, 8, 2, 256), "the new name wins over the old");
        assertEquals(Optional.empty(), source.text(Settings.PLAN), "blank is unset");
        properties.setProperty("lazarus.ckpt.l2.set.size", "5");
        assertEquals(5, source.integer(Settings.CKPT_L2_SET_SIZE, 8, 2, 256), "the property wins over both");
        assertEquals(1, lines.size());
    }

    @Test
    void parsersNameTheSettingAndTheRule() {
        SettingSource source = new SettingSource(new Properties(), Map.of("LAZARUS_CKPT_KEEP", "0",
                "LAZARUS_CKPT_PFS_DIRECT", "maybe", "LAZARUS_NVM_RESTART", "sometimes"), line -> { });
        assertEquals("lazarus.ckpt.keep=0 must be an integer from 1 to 1000", assertThrows(
                IllegalArgumentException.class, () -> source.integer(Settings.CKPT_KEEP, 2, 1, 1000)).getMessage());
        assertEquals("lazarus.ckpt.pfs.direct=maybe must be true or false", assertThrows(
                IllegalArgumentException.class, () -> source.flag(Settings.CKPT_PFS_DIRECT, true)).getMessage());
        assertEquals("lazarus.nvm.restart=sometimes must be auto or off", assertThrows(IllegalArgumentException.class,
                () -> source.choice(Settings.NVM_RESTART, "auto", "auto", "off")).getMessage());
        assertEquals(3, source.integer(Settings.CKPT_FULL_EVERY, 3, 1, 10), "unset gives the fallback");
        assertTrue(source.flag(Settings.EASYCRASH, true));
    }
}
