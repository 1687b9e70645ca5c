package dev.lazarus.recovery.policy.failure;

import java.util.Locale;

/** How the decision's log line shows a time: milliseconds below a tenth of a second, so short ones do not read 0. */
final class Seconds {

    private Seconds() {
    }

    static String text(double seconds) {
        return seconds < 0.1 ? String.format(Locale.ROOT, "%.2f ms", seconds * 1e3)
                : String.format(Locale.ROOT, "%.1f s", seconds);
    }
}
