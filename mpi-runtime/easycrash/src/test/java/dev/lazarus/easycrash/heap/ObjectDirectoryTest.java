package dev.lazarus.easycrash.heap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.mpi.ElementType;

import java.net.URL;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ObjectDirectoryTest {

    /**
     * The build wrote Chronicle's generated classes into the module's output ({@link ChronicleNativeClasses}): a
     * directory opens with the class loaded from there, not compiled by javac in this JVM (a class Chronicle compiles
     * and defines itself has no code source location).
     */
    @Test
    void aDirectoryOpensWithChroniclesGeneratedClassFromTheBuildNotCompiledAtRunTime(@TempDir Path dir)
            throws Exception {
        try (ObjectDirectory directory = ObjectDirectory.create(dir.resolve("objects"))) {
            directory.signature("npb.CG --class S");
            directory.put(new ObjectDescriptor("x", ElementType.DOUBLE, 4096, 1400, true));
        }
        for (String name : ChronicleNativeClasses.VALUE_INTERFACES) {
            Class<?> generated = Class.forName(name + ChronicleNativeClasses.NATIVE_SUFFIX, false,
                    ObjectDirectory.class.getClassLoader());
            URL location = generated.getProtectionDomain().getCodeSource() == null ? null
                    : generated.getProtectionDomain().getCodeSource().getLocation();
            assertNotNull(location, generated + " was defined at run time, not loaded from the build's output");
            assertEquals(ObjectDirectory.class.getProtectionDomain().getCodeSource().getLocation(), location);
        }
        StringBuilder problem = new StringBuilder();
        try (ObjectDirectory reopened = ObjectDirectory.recover(dir.resolve("objects"), problem).orElseThrow()) {
            assertEquals(Optional.of("npb.CG --class S"), reopened.signature(), problem.toString());
            assertEquals(List.of(new ObjectDescriptor("x", ElementType.DOUBLE, 4096, 1400, true)), reopened.objects());
            assertTrue(reopened.get("y").isEmpty());
        }
    }
}
