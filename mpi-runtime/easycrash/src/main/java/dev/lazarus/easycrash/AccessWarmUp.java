package dev.lazarus.easycrash;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Runs the memory-segment loads and stores the persistent heap's accessors use ({@code double}, {@code long} and
 * {@code int}) 2,000 times in a scratch segment, once per JVM, before the first object is handed out (some 20 ms,
 * most of which the first accesses would cost anyway).
 *
 * <p>Why: every such access goes through the JDK's {@code ScopedMemoryAccess.get/putLongUnalignedInternal} (and the
 * {@code Int} twins), which C2 inlines by annotation, and inside them through {@code Unsafe.getLongUnaligned}, which
 * it inlines only if the call site's profiled count is at least 0.85% of the method's invocations
 * ({@code MinInlineFrequencyRatio}). The application's loops run these methods inlined in compiled code, so they are
 * invoked on their own only a few hundred times, and when C2 compiles a loop before they have a profile (count -1)
 * it leaves a real call in every access ({@code Unsafe::getLongUnaligned ... failed to inline: low call site
 * frequency} in {@code -XX:+PrintInlining}): 3 of 22 runs of a harness calling MG's operators on mapped objects ran
 * 5 to 6 times slower, none of 20 with this warm-up. Calls made here, in the interpreter and then in the methods' own
 * first compiled code, give them that profile first.
 */
final class AccessWarmUp {
    /** Enough that most calls are counted after the methods' profiles exist (the interpreter starts at ~200-400). */
    private static final int CALLS = 2_000;

    static {
        // Shared, as the heap's mapping is: the accesses' session check then sees one session class, as in a run.
        try (Arena arena = Arena.ofShared()) {
            run(arena.allocate(128, 8));
        }
    }

    private AccessWarmUp() {
    }

    /** Returns once the warm-up has run (on the first call, by initializing this class). */
    static void once() {
        // The work is in the static initializer, which the JVM runs exactly once.
    }

    private static void run(MemorySegment scratch) {
        // Doubles in bytes 0-31 (aligned and unaligned layouts), longs in 32-63, ints in 64-79.
        for (int i = 0; i < CALLS; i++) {
            final long at = i & 3;
            scratch.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, at,
                    scratch.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, at) + 1.0);
            scratch.setAtIndex(ValueLayout.JAVA_DOUBLE, at, scratch.getAtIndex(ValueLayout.JAVA_DOUBLE, at) + 1.0);
            scratch.setAtIndex(ValueLayout.JAVA_LONG, 4 + at, scratch.getAtIndex(ValueLayout.JAVA_LONG, 4 + at) + 1);
            scratch.setAtIndex(ValueLayout.JAVA_INT, 16 + at, scratch.getAtIndex(ValueLayout.JAVA_INT, 16 + at) + 1);
        }
    }
}
