package dev.lazarus.coordinator.launch;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks the user's {@code --jvm-opt} options before the job starts, so that a rank JVM that cannot start is one line
 * of ours and not a launcher failure: heap sizes below what a rank needs are refused outright, and any option that is
 * not a plain {@code -D} property is tried once with {@code java OPTIONS -version}, which is what the JVM itself
 * accepts (unknown options, bad sizes, conflicting flags), at the cost of one JVM start.
 */
final class RankJvmCheck {
    /** The smallest heap a rank starts with: the runtime, Chronicle Map and an application of class S. */
    static final long MIN_HEAP_BYTES = 64L << 20;

    private static final Pattern HEAP = Pattern.compile("(-Xmx|-Xms|-XX:MaxHeapSize=|-XX:InitialHeapSize=)"
            + "([0-9]{1,18})([kKmMgGtT]?)");
    private static final long START_SECONDS = 60;

    private RankJvmCheck() {
    }

    /**
     * @param java    the rank JVM's {@code java} executable
     * @param flags   the flags every rank JVM gets
     * @param options the user's options
     * @throws IllegalArgumentException one line naming the option and the JVM's own complaint
     */
    static void check(Path java, List<String> flags, List<String> options) {
        for (String option : options) {
            Matcher m = HEAP.matcher(option);
            if (m.matches() && bytes(m.group(2), m.group(3)) < MIN_HEAP_BYTES) {
                throw new IllegalArgumentException("--jvm-opt " + option + ": a rank needs a heap of at least "
                        + (MIN_HEAP_BYTES >> 20) + "m");
            }
        }
        if (options.stream().allMatch(o -> o.startsWith("-D"))) {
            return;
        }
        List<String> command = new ArrayList<>(List.of(java.toString()));
        command.addAll(flags);
        command.addAll(options);
        command.add("-version");
        String complaint = complaint(command);
        if (complaint != null) {
            throw new IllegalArgumentException("--jvm-opt " + String.join(" ", options)
                    + ": the rank JVM does not start: " + complaint);
        }
    }

    /** @return the first line the JVM printed if it failed, else null */
    private static String complaint(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output;
            try (InputStream in = process.getInputStream()) {
                output = new String(in.readNBytes(64 * 1024), StandardCharsets.UTF_8);
            }
            if (!process.waitFor(START_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return "java -version did not finish in " + START_SECONDS + " s";
            }
            if (process.exitValue() == 0) {
                return null;
            }
            return output.lines().map(String::strip).filter(l -> !l.isEmpty() && !RankJvmNotice.is(l)).findFirst()
                    .orElse("exit status " + process.exitValue());
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the rank JVM: java=" + command.getFirst() + " ("
                    + e.getMessage() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking --jvm-opt");
        }
    }

    private static long bytes(String digits, String unit) {
        long value = Long.parseLong(digits);
        int shift = switch (unit.toLowerCase(Locale.ROOT)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            case "t" -> 40;
            default -> 0;
        };
        return value > (Long.MAX_VALUE >> shift) ? Long.MAX_VALUE : value << shift;
    }
}
