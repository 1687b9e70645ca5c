package dev.lazarus.coordinator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.store.settings.Setting;
import dev.lazarus.store.settings.Settings;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The README's configuration table against the one table of settings ({@link Settings}). */
class ConfigurationTableTest {
    /** Read by the ./lazarus script or the launcher, not by the ranks or the daemon: not in {@link Settings}. */
    private static final Set<String> LAUNCHER_ONLY = Set.of("LAZARUS_BACKEND", "LAZARUS_OMPI_LIB", "LAZARUS_CACHE",
            "LAZARUS_NO_BUILD", "LAZARUS_DEBUG", "JAVA_HOME", "MPJ_HOME");

    /** The table's rows, from its header line to the first line that is not a row. */
    private static List<String[]> rows() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("..", "README.md"));
        int header = lines.indexOf("| setting | option | environment | default | meaning |");
        assertTrue(header >= 0, "the README has its configuration table");
        List<String[]> rows = new ArrayList<>();
        for (int i = header + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            rows.add(lines.get(i).split("\\|"));
        }
        return rows;
    }

    @Test
    void everySettingIsInTheTableUnderItsEnvironmentName() throws IOException {
        Set<String> documented = new TreeSet<>();
        for (String[] row : rows()) {
            documented.add(row[3].trim().replace("`", ""));
        }
        List<String> missing = new ArrayList<>();
        for (Setting setting : Settings.ALL) {
            if (!documented.contains(setting.environment())) {
                missing.add(setting.environment());
            }
        }
        assertEquals(List.of(), missing, "settings the README does not list");
    }

    @Test
    void everyEnvironmentNameInTheTableIsASettingOrTheLaunchersOwn() throws IOException {
        Set<String> known = new TreeSet<>(LAUNCHER_ONLY);
        Settings.ALL.forEach(setting -> known.add(setting.environment()));
        List<String> unknown = new ArrayList<>();
        for (String[] row : rows()) {
            String environment = row[3].trim().replace("`", "");
            if (!environment.isEmpty() && !known.contains(environment)) {
                unknown.add(environment);
            }
        }
        assertEquals(List.of(), unknown, "names in the README that no setting reads");
    }
}
