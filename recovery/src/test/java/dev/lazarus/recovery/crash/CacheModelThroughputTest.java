package dev.lazarus.recovery.crash;

import dev.lazarus.easycrash.trace.AccessTracer;
import org.junit.jupiter.api.Test;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Traced accesses per second through the paper's hierarchy (target: 30 million single-threaded). Prints, never
 * asserts a time. {@code main} runs longer: {@code java ... CacheModelThroughputTest [accessesInMillions]}. Rates
 * are per second of this thread's CPU time, so a busy build machine does not halve them; wall time is printed too.
 */
class CacheModelThroughputTest {
    private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE;
    private static final long DOUBLES = 1 << 20; // two 8 MiB arrays: larger than L2, fit in L3
    private static final long A = 4096;
    private static final long B = A + DOUBLES * 8;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    @Test
    void printsAccessesPerSecond() {
        measure(30_000_000L, System.out);
    }

    public static void main(String[] args) {
        measure(args.length > 0 ? Long.parseLong(args[0]) * 1_000_000L : 300_000_000L, System.out);
    }

    private static void measure(long target, PrintStream out) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment heap = arena.allocate(B + DOUBLES * 8, 4096);
            report(out, "stencil (3 loads + 1 store per point)", stencil(heap, target / 4));
            report(out, "stencil again (warm JIT)", stencil(heap, target));
            report(out, "random 8-byte loads/stores over 16 MiB (miss-bound)", random(heap, target / 10));
            report(out, "stencil through SnapshottingTracer (20 crash points)", snapshotting(heap, target));
        }
    }

    private static void report(PrintStream out, String what, double[] result) {
        out.printf(Locale.ROOT, "cache model: %-52s %6.1f M accesses/s of CPU time (%d accesses, %.2f s CPU,"
                + " %.2f s wall)%n", what, result[0] / result[1] / 1e6, (long) result[0], result[1], result[2]);
        assertTrue(result[0] > 0);
    }

    /** {accesses, CPU seconds, wall seconds} since {@code cpuStart} and {@code wallStart}. */
    private static double[] result(long accesses, long cpuStart, long wallStart) {
        return new double[] {accesses, (THREADS.getCurrentThreadCpuTime() - cpuStart) / 1e9,
                (System.nanoTime() - wallStart) / 1e9};
    }

    /** A 1-D Jacobi sweep, b[i] = (a[i-1] + a[i] + a[i+1]) / 3, then the arrays swap: the NPB-like pattern. */
    private static double[] stencil(MemorySegment heap, long target) {
        CacheModel model = new CacheModel(CacheConfig.paperTable4(), heap);
        return sweep(heap, model, model, target);
    }

    private static double[] snapshotting(MemorySegment heap, long target) {
        CacheModel model = new CacheModel(CacheConfig.paperTable4(), heap);
        int[] taken = new int[1];
        SnapshottingTracer tracer = new SnapshottingTracer(model, CrashPoints.uniform(target - 1, 20, 1),
                snapshot -> taken[0]++);
        double[] result = sweep(heap, model, tracer, target);
        assertTrue(taken[0] == 20, "taken " + taken[0]);
        return result;
    }

    private static double[] sweep(MemorySegment heap, CacheModel model, AccessTracer tracer, long target) {
        long cpuStart = THREADS.getCurrentThreadCpuTime();
        long wallStart = System.nanoTime();
        long from = A;
        long to = B;
        int iteration = 0;
        while (model.accessCount() < target) {
            tracer.iterationBegin(iteration++);
            for (long i = 1; i < DOUBLES - 1 && model.accessCount() < target; i++) {
                long at = from + i * 8;
                tracer.load(at - 8, 8);
                tracer.load(at, 8);
                tracer.load(at + 8, 8);
                double value = (heap.get(DOUBLE, at - 8) + heap.get(DOUBLE, at) + heap.get(DOUBLE, at + 8)) / 3;
                tracer.store(to + i * 8, 8);
                heap.set(DOUBLE, to + i * 8, value);
            }
            tracer.persist(to, DOUBLES * 8);
            tracer.regionEnd(0, iteration);
            long swap = from;
            from = to;
            to = swap;
        }
        return result(model.accessCount(), cpuStart, wallStart);
    }

    private static double[] random(MemorySegment heap, long target) {
        CacheModel model = new CacheModel(CacheConfig.paperTable4(), heap);
        long mask = DOUBLES * 2 - 1;
        long state = 0x9E3779B97F4A7C15L;
        long cpuStart = THREADS.getCurrentThreadCpuTime();
        long wallStart = System.nanoTime();
        for (long n = 0; n < target; n++) {
            state = state * 6364136223846793005L + 1442695040888963407L; // LCG: no allocation, no library call
            long address = A + ((state >>> 20) & mask) * 8;
            if ((state & 0x300) == 0) {
                model.store(address, 8);
            } else {
                model.load(address, 8);
            }
        }
        return result(model.accessCount(), cpuStart, wallStart);
    }
}
