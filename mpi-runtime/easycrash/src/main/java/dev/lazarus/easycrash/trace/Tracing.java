package dev.lazarus.easycrash.trace;

/** Whether this JVM traces data-object accesses. Fixed at class initialization, so it costs nothing when off. */
public final class Tracing {
    /** System property that switches tracing on for the whole JVM (crash-test campaigns only). */
    public static final String PROPERTY = "lazarus.easycrash.trace";

    /** {@code true} only in campaign JVMs. A {@code static final} constant: branches on it vanish when false. */
    public static final boolean ENABLED = Boolean.getBoolean(PROPERTY);

    private Tracing() {
    }
}
