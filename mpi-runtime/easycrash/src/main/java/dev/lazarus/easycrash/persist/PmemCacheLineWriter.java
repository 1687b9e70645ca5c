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

    private final String mechanism;

    private PmemCacheLineWriter(String mechanism) {
        this.mechanism = mechanism;
    }

    /**
     * Loads libpmem.
     *
     * @throws IllegalStateException naming the package to install when the library is missing
     */
    public static PmemCacheLineWriter load() {
        try {
            Downcalls.PERSIST.type(); // loads the library here, or fails with the message
        } catch (ExceptionInInitializerError e) {
            if (e.getCause() instanceof IllegalStateException missing) {
                throw missing;
            }
            throw e;
        }
        return new PmemCacheLineWriter("libpmem pmem_flush (" + flushInstruction() + ")"
                + (JdkWriteBack.AVAILABLE ? "; single lines by the JDK's write-back" : ""));
    }

    @Override
    public void writeBack(MemorySegment segment, long offset, long length) {
        if (checked(segment, offset, length)) {
            try {
                Downcalls.FLUSH.invokeExact(segment.address() + offset, length);
            } catch (Throwable t) {
                throw new IllegalStateException("pmem_flush failed", t);
            }
        }
    }

    @Override
    public void drain() {
        try {
            Downcalls.DRAIN.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException("pmem_drain failed", t);
        }
    }

    /**
     * The write-back and the fence: a few lines (the heap's bookmark, every iteration) by the JDK's write-back, which
     * costs no more interpreted than compiled ({@link JdkWriteBack} says why), longer ranges by {@code pmem_persist}.
     */
    @Override
    public void persist(MemorySegment segment, long offset, long length) {
        if (checked(segment, offset, length)) {
            if (JdkWriteBack.takes(length)) {
                JdkWriteBack.persist(segment.address() + offset, length);
                return;
            }
            try {
                Downcalls.PERSIST.invokeExact(segment.address() + offset, length);
            } catch (Throwable t) {
                throw new IllegalStateException("pmem_persist failed", t);
            }
        }
    }

    /** Whether there is anything to write back; bounds are checked here because libpmem would flush any address. */
    private static boolean checked(MemorySegment segment, long offset, long length) {
        if (length <= 0) {
            return false;
        }
        if (offset < 0 || length > segment.byteSize() - offset) {
            throw new IndexOutOfBoundsException("offset=" + offset + " length=" + length
                    + " outside segment of size=" + segment.byteSize());
        }
        return true;
    }

    @Override
    public String mechanism() {
        return mechanism;
    }

    /**
     * The downcall handles, in static finals: a constant handle lets C1 and C2 compile {@code invokeExact} to the
     * native call itself, where a handle read from a field goes through the method-handle linkage on every call.
     * That is also why each method names its handle at the call rather than sharing a helper that takes one.
     */
    private static final class Downcalls {
        static final MethodHandle FLUSH;
        static final MethodHandle DRAIN;
        static final MethodHandle PERSIST;

        static {
            SymbolLookup lib = library();
            Linker linker = Linker.nativeLinker();
            Linker.Option critical = Linker.Option.critical(false);
            FunctionDescriptor range = FunctionDescriptor.ofVoid(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG);
            FLUSH = linker.downcallHandle(lib.find("pmem_flush").orElseThrow(), range, critical);
            DRAIN = linker.downcallHandle(lib.find("pmem_drain").orElseThrow(), FunctionDescriptor.ofVoid(), critical);
            PERSIST = linker.downcallHandle(lib.find("pmem_persist").orElseThrow(), range, critical);
        }

        private Downcalls() {
        }

        @SuppressWarnings("restricted") // native access is granted with --enable-native-access=ALL-UNNAMED
        private static SymbolLookup library() {
            try {
                return SymbolLookup.libraryLookup(LIBRARY, Arena.global());
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("cannot load " + LIBRARY + " for cache-line write-back: install the"
                        + " Debian package libpmem1 (scripts/setup does)", e);
            }
        }
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
