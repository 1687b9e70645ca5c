package dev.lazarus.mpi.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ExitStatusFilesTest {

    @Test
    void writtenStatusIsReadBackAndPrivate(@TempDir Path dir) throws Exception {
        ExitStatusFiles.write(dir, 3, 7);
        assertEquals(OptionalInt.of(7), ExitStatusFiles.read(dir, 3));
        assertEquals("rw-------", PosixFilePermissions.toString(
                Files.getPosixFilePermissions(ExitStatusFiles.file(dir, 3))));
    }

    @Test
    void missingGarbageOrOversizedFilesReadAsNoStatus(@TempDir Path dir) throws Exception {
        assertEquals(OptionalInt.empty(), ExitStatusFiles.read(dir, 0));
        Files.writeString(ExitStatusFiles.file(dir, 1), "seven");
        assertEquals(OptionalInt.empty(), ExitStatusFiles.read(dir, 1));
        Files.writeString(ExitStatusFiles.file(dir, 2), "1".repeat(100));
        assertEquals(OptionalInt.empty(), ExitStatusFiles.read(dir, 2));
    }
}
