package dev.lazarus.store.dirty;

import dev.lazarus.store.NativeLibc;

import java.lang.foreign.FunctionDescriptor;
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

    private static long query() {
        MethodHandle sysconf = NativeLibc.downcall("sysconf",
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
