package dev.lazarus.easycrash.persist;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Cache-line write-back through PMDK's libpmem ({@code libpmem.so.1}, Debian package {@code libpmem1}). The library
 * detects the CPU's best flush instruction once; the downcalls are "critical" (no thread-state transition) because
 * flushing never blocks, and pass the address as a plain {@code long} so that the hot path allocates nothing.
 */
public final class PmemCacheLineWriter implements CacheLineWriter {
    private static final String LIBRARY = "libpmem.so.1";

    private final MethodHandle flush;
    private final MethodHandle drain;
    private final String mechanism;

    private PmemCacheLineWriter(MethodHandle flush, MethodHandle drain, String mechanism) {
        this.flush = flush;
        this.drain = drain;
        this.mechanism = mechanism;
    }

    /**
     * Loads libpmem.
     *
     * @throws IllegalStateException naming the package to install when the library is missing
     */
    @SuppressWarnings("restricted") // native access is granted with --enable-native-access=ALL-UNNAMED
    public static PmemCacheLineWriter load() {
        SymbolLookup lib;
        try {
            lib = SymbolLookup.libraryLookup(LIBRARY, Arena.global());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("cannot load " + LIBRARY + " for cache-line write-back: install the"
                    + " Debian package libpmem1 (scripts/setup does)", e);
        }
        Linker linker = Linker.nativeLinker();
        Linker.Option critical = Linker.Option.critical(false);
        MethodHandle flush = linker.downcallHandle(lib.find("pmem_flush").orElseThrow(),
                FunctionDescriptor.ofVoid(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), critical);
        MethodHandle drain = linker.downcallHandle(lib.find("pmem_drain").orElseThrow(),
                FunctionDescriptor.ofVoid(), critical);
        return new PmemCacheLineWriter(flush, drain, "libpmem pmem_flush (" + flushInstruction() + ")");
    }

    @Override
    public void writeBack(MemorySegment segment, long offset, long length) {
        if (length <= 0) {
            return;
        }
        // Bounds are checked here because libpmem would happily flush any address.
        if (offset < 0 || length > segment.byteSize() - offset) {
            throw new IndexOutOfBoundsException("offset=" + offset + " length=" + length
                    + " outside segment of size=" + segment.byteSize());
        }
        try {
            flush.invokeExact(segment.address() + offset, length);
        } catch (Throwable t) {
            throw new IllegalStateException("pmem_flush failed", t);
        }
    }

    @Override
    public void drain() {
        try {
            drain.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException("pmem_drain failed", t);
        }
    }

    @Override
    public String mechanism() {
        return mechanism;
    }

    /**
     * The instruction libpmem will pick, read from the CPU flags: it prefers CLWB, then CLFLUSHOPT, then CLFLUSH
     * (unless the PMEM_NO_CLWB or PMEM_NO_CLFLUSHOPT environment variables say otherwise).
     */
    static String flushInstruction() {
        String flags;
        try {
            flags = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("flags"))
                    .findFirst().orElse("");
        } catch (IOException e) {
            return "unknown";
        }
        if (flags.contains(" clwb") && !"1".equals(System.getenv("PMEM_NO_CLWB"))) {
            return "clwb";
        }
        if (flags.contains(" clflushopt") && !"1".equals(System.getenv("PMEM_NO_CLFLUSHOPT"))) {
            return "clflushopt";
        }
        return "clflush";
    }
}
