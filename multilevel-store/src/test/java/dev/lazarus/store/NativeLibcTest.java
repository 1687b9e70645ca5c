package dev.lazarus.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import org.junit.jupiter.api.Test;

class NativeLibcTest {

    @Test
    void downcallsALibcFunction() throws Throwable {
        MethodHandle getpid = NativeLibc.downcall("getpid", FunctionDescriptor.of(ValueLayout.JAVA_INT));
        assertEquals(ProcessHandle.current().pid(), (long) (int) getpid.invokeExact());
    }

    @Test
    void aMissingSymbolIsNamed() {
        assertEquals("libc symbol missing: name=no_such_function_here", assertThrows(IllegalStateException.class,
                () -> NativeLibc.downcall("no_such_function_here", FunctionDescriptor.ofVoid())).getMessage());
    }
}
