package dev.lazarus.store.dirty.uffd;

import static dev.lazarus.store.dirty.ShmMappings.PAGE;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import dev.lazarus.store.dirty.ShmMappings;
import dev.lazarus.store.dirty.WrittenPageScanner.WrittenRangeSink;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;

/**
 * Bytes a warm {@link UffdPageScanner} allocates on this thread for 1000 rounds of two page writes and a scan, run by
 * {@link #main} in a JVM of its own whose JIT mode the caller chooses. In a JVM with the usual background compilation
 * what is compiled after a given warm-up depends on how much CPU the compiler threads got, so a measurement there is
 * only as good as the machine's load: under load C2 had not yet compiled the scan after 50,000 rounds, and the JDK's
 * errno capture, which only C2's escape analysis removes, then cost 40 bytes per scan. With {@code -Xint} nothing is
 * compiled, and with {@code -Xbatch} compilation is synchronous, so the warm-up's count of calls decides.
 */
final class ScanAllocation {
    static final int MEASURED_ROUNDS = 1000;

    private ScanAllocation() {
    }

    /** @return the bytes allocated by the measured rounds; throws unless they report two pages per round */
    static long measure(UffdPageScanner scanner, MemorySegment segment, int warmUpRounds) {
        long[] pages = new long[1];
        WrittenRangeSink counting = (offset, length) -> pages[0] += length / PAGE;
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        rounds(scanner, segment, counting, warmUpRounds); // first use links the downcall and accessors
        pages[0] = 0;
        long before = threads.getCurrentThreadAllocatedBytes();
        rounds(scanner, segment, counting, MEASURED_ROUNDS);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        if (pages[0] != 2L * MEASURED_ROUNDS) {
            throw new IllegalStateException("pages=" + pages[0] + " expected=" + 2L * MEASURED_ROUNDS);
        }
        return allocated;
    }

    private static void rounds(UffdPageScanner scanner, MemorySegment segment, WrittenRangeSink sink, int count) {
        for (int i = 0; i < count; i++) {
            touch(segment, i % 64);
            touch(segment, (i + 7) % 64);
            scanner.scanAndReset(segment, sink);
        }
    }

    private static void touch(MemorySegment segment, long page) {
        segment.set(JAVA_BYTE, page * PAGE, (byte) (segment.get(JAVA_BYTE, page * PAGE) + 1));
    }

    /** {@code ScanAllocation WARM_UP_ROUNDS}: prints the bytes {@link #measure} counts for a 64-page /dev/shm file. */
    public static void main(String[] args) throws Exception {
        try (ShmMappings shm = new ShmMappings(); UffdPageScanner scanner = new UffdPageScanner()) {
            MemorySegment segment = shm.map(64);
            scanner.register(segment);
            System.out.println(measure(scanner, segment, Integer.parseInt(args[0])));
        }
    }
}
