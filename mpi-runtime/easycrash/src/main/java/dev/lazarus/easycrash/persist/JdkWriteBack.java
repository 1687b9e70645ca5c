package dev.lazarus.easycrash.persist;

import jdk.internal.misc.Unsafe;

/**
 * The JDK's own cache-line write-back, {@code jdk.internal.misc.Unsafe.writebackMemory}: the instruction the JVM
 * picked at start-up (CLWB, CLFLUSHOPT or CLFLUSH) for each line, with the fences it needs before and after, which is
 * what {@code MappedByteBuffer.force} runs for a MAP_SYNC mapping. The writers persist a few lines with it (the heap's
 * bookmark, once per main-loop iteration, and the persistence marker).
 *
 * <p>Why not libpmem there: a rank JVM on a node whose cores all hold ranks compiles with C2 alone (the launcher's
 * choice), and C2 alone interprets a method until its 10,000th call. A main loop of a few thousand iterations then
 * runs its bookmark interpreted from first to last, and an interpreted FFM downcall goes through its method-handle
 * chain call by call: solver.HEAT class A on two ranks (2,400 iterations of 0.25 ms) ran 5% longer with the
 * bookmark's {@code pmem_persist} than without it. This write-back is three JVM natives, as cheap interpreted as
 * compiled (C2 turns them into the instructions). Compiling the bookmark early instead
 * ({@code -XX:CompileCommand=CompileThresholdScaling}) did not help: compiled after 100 calls, it called the writer and
 * the downcall's chain still interpreted, their call sites too cold to inline.
 *
 * <p>It needs {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED}, which every Lazarus JVM is given; without
 * it (or on a JVM that cannot write lines back) {@link #AVAILABLE} is false and the writers use their own mechanism.
 */
final class JdkWriteBack {
    /** Whether the export is there and the JVM writes cache lines back (it has a flush line size). */
    static final boolean AVAILABLE = available();

    /** Ranges up to this long (four cache lines) are persisted here; longer ones by the writer's own mechanism. */
    static final long MAX_BYTES = 256;

    private static final Unsafe UNSAFE = AVAILABLE ? Unsafe.getUnsafe() : null;

    private JdkWriteBack() {
    }

    /** Whether a persist of {@code length} bytes goes here: a few lines, and the write-back is available. */
    static boolean takes(long length) {
        return length <= MAX_BYTES && AVAILABLE;
    }

    /** Writes back every cache line of {@code [address, address + length)} and waits until they have reached memory. */
    static void persist(long address, long length) {
        UNSAFE.writebackMemory(address, length);
    }

    private static boolean available() {
        // Only touch the class once the export is known: without it, the first call would throw IllegalAccessError.
        return Object.class.getModule().isExported("jdk.internal.misc", JdkWriteBack.class.getModule())
                && Unsafe.getUnsafe().dataCacheLineFlushSize() != 0;
    }
}
