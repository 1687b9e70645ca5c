package dev.lazarus.store.dirty;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/** The system's base page size, the unit in which {@link WrittenPageScanner}s track and report writes. */
public final class PageSize {
    private static final int SC_PAGESIZE = 30; // from <bits/confname.h> on Linux
    private static final long SYSTEM = query();

    private PageSize() {
    }

    /** @return the base page size in bytes, e.g. 4096 on x86_64 */
    public static long system() {
        return SYSTEM;
    }

    @SuppressWarnings("restricted") // native access is granted with --enable-native-access=ALL-UNNAMED
    private static long query() {
        Linker linker = Linker.nativeLinker();
        MethodHandle sysconf = linker.downcallHandle(linker.defaultLookup().find("sysconf").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
        try {
            long size = (long) sysconf.invokeExact(SC_PAGESIZE);
            if (size <= 0 || Long.bitCount(size) != 1) {
                throw new IllegalStateException("sysconf(_SC_PAGESIZE) returned size=" + size);
            }
            return size;
        } catch (Throwable t) {
            throw new ExceptionInInitializerError(t);
        }
    }
}
