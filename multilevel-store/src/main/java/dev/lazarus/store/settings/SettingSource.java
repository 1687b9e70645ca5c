package dev.lazarus.store.settings;

import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Where settings are read from, with one precedence: the JVM property (the launcher passes command-line options as
 * properties), then the environment variable ({@link Setting#environment()}), then the setting's deprecated
 * environment names, each of which prints one deprecation line the first time it is used. Blank values count as
 * unset. The parsers' errors are one line: {@code property=value must be ...}.
 */
public final class SettingSource {
    private final Properties properties;
    private final Map<String, String> environment;
    private final Consumer<String> deprecations;
    private final Set<String> warned = new HashSet<>();

    /**
     * @param deprecations where the deprecation lines go
     */
    public SettingSource(Properties properties, Map<String, String> environment, Consumer<String> deprecations) {
        this.properties = properties;
        this.environment = environment;
        this.deprecations = deprecations;
    }

    /** Reads from the given properties and environment; deprecation lines go to standard error. */
    public SettingSource(Properties properties, Map<String, String> environment) {
        this(properties, environment, System.err::println);
    }

    /** @return the setting's value, trimmed, or empty when unset */
    public Optional<String> text(Setting setting) {
        String fromProperty = properties.getProperty(setting.property());
        if (fromProperty != null && !fromProperty.isBlank()) {
            return Optional.of(fromProperty.trim());
        }
        Optional<String> fromEnvironment = environmentText(setting.environment());
        if (fromEnvironment.isPresent()) {
            return fromEnvironment;
        }
        for (String old : setting.deprecatedEnvironment()) {
            Optional<String> fromOld = environmentText(old);
            if (fromOld.isPresent()) {
                synchronized (warned) {
                    if (warned.add(old)) {
                        deprecations.accept("lazarus: " + old + " is deprecated and goes in the next release; use "
                                + setting.environment() + " (" + setting.property() + ")");
                    }
                }
                return fromOld;
            }
        }
        return Optional.empty();
    }

    /** @return a variable of the environment that is not a setting (LAZARUS_HOST, say), trimmed, or empty */
    public Optional<String> environmentText(String name) {
        String value = environment.get(name);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }

    /**
     * @return the setting as an integer in {@code [min, max]}, or {@code fallback} when unset
     * @throws IllegalArgumentException {@code property=value must be an integer from min to max}
     */
    public int integer(Setting setting, int fallback, int min, int max) {
        String text = text(setting).orElse(null);
        if (text == null) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(text);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(setting.property() + "=" + text + " must be an integer from " + min
                + " to " + max);
    }

    /**
     * @return the setting as a flag ({@code true/yes/on/1} or {@code false/no/off/0}), or {@code fallback} when unset
     * @throws IllegalArgumentException {@code property=value must be true or false}
     */
    public boolean flag(Setting setting, boolean fallback) {
        String text = text(setting).orElse(null);
        if (text == null) {
            return fallback;
        }
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on", "1" -> true;
            case "false", "no", "off", "0" -> false;
            default -> throw new IllegalArgumentException(setting.property() + "=" + text + " must be true or false");
        };
    }

    /**
     * @return the setting, one of {@code allowed}, or {@code fallback} when unset
     * @throws IllegalArgumentException {@code property=value must be a or b}
     */
    public String choice(Setting setting, String fallback, String... allowed) {
        String text = text(setting).orElse(fallback);
        for (String option : allowed) {
            if (option.equals(text)) {
                return text;
            }
        }
        throw new IllegalArgumentException(setting.property() + "=" + text + " must be "
                + String.join(" or ", allowed));
    }
}
