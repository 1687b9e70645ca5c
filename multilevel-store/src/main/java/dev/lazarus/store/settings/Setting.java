package dev.lazarus.store.settings;

import java.util.List;
import java.util.Locale;

/**
 * One setting.
 *
 * @param property       the JVM property, {@code lazarus.}...; the launcher passes command-line options as these
 * @param defaultValue   the default as the README states it
 * @param deprecatedEnvironment older environment names still read, each with a deprecation line, for one release
 */
public record Setting(String property, String defaultValue, List<String> deprecatedEnvironment) {

    /** @throws IllegalArgumentException if the property is not a {@code lazarus.} name of words and dots */
    public Setting {
        if (!property.matches("lazarus(\\.[a-z][a-zA-Z0-9]*)+")) {
            throw new IllegalArgumentException("setting property " + property + " must be lazarus.<word>[.<word>...]");
        }
        deprecatedEnvironment = List.copyOf(deprecatedEnvironment);
    }

    /**
     * The one rule from property to environment name: drop {@code lazarus.}, dots become underscores, upper case,
     * prefix {@code LAZARUS_}. {@code lazarus.ckpt.l2.set.size} is {@code LAZARUS_CKPT_L2_SET_SIZE}.
     */
    public String environment() {
        return "LAZARUS_" + property.substring("lazarus.".length()).replace('.', '_').toUpperCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return property;
    }
}
