package dev.lazarus.npb.common;

import java.util.Locale;

/** NPB problem classes supported by the kernels, as defined in NPB 3.3/3.4. */
public enum ProblemClass {
    S, W, A, B;

    /**
     * Parses a class letter, case-insensitively.
     *
     * @throws IllegalArgumentException naming the accepted letters
     */
    public static ProblemClass parse(String text) {
        if (text != null) {
            for (ProblemClass c : values()) {
                if (c.name().equals(text.trim().toUpperCase(Locale.ROOT))) {
                    return c;
                }
            }
        }
        throw new IllegalArgumentException("class=" + text + " is not one of S, W, A, B");
    }
}
