package dev.lazarus.store;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/** Looks up C library functions as FFM downcalls, for the few system calls Java has no API for. */
public final class NativeLibc {
    private static final Linker LINKER = Linker.nativeLinker();

    private NativeLibc() {
    }

    /**
     * @param name       the function's symbol in the native linker's default lookup (libc)
     * @param descriptor the function's signature
     * @param options    linker options, e.g. the first variadic argument or errno capture
     * @return a downcall handle to the function
     * @throws IllegalStateException if the symbol is missing
     */
    @SuppressWarnings("restricted") // native access is granted with --enable-native-access=ALL-UNNAMED
    public static MethodHandle downcall(String name, FunctionDescriptor descriptor, Linker.Option... options) {
        MemorySegment symbol = LINKER.defaultLookup().find(name)
                .orElseThrow(() -> new IllegalStateException("libc symbol missing: name=" + name));
        return LINKER.downcallHandle(symbol, descriptor, options);
    }
}
