package dev.lazarus.coordinator.it;

import dev.lazarus.testing.LazarusProcess;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The ranks load classes only from the class path Lazarus gives them. Open MPI puts the working directory first on
 * the class path of an executable named java, where any class file would shadow Lazarus's own; the launcher starts
 * the rank JVMs through env so that it does not.
 */
class RankClassPathIT {

    @Test
    void anOpenMpiRankDoesNotLoadClassesFromTheWorkingDirectory(@TempDir Path workingDirectory) throws Exception {
        Files.createDirectories(workingDirectory.resolve("npb"));
        Files.writeString(workingDirectory.resolve("npb/CG.class"), "a class file a user left here");
        Path testClasses = Path.of(ClassPathProbeApp.class.getProtectionDomain().getCodeSource().getLocation()
                .toURI());
        LazarusProcess.Result result = LazarusProcess.run(workingDirectory, Duration.ofMinutes(2), "run", "--np",
                "2", "--backend", "openmpi", "--classpath", testClasses.toString(), "--timeout", "100",
                ClassPathProbeApp.class.getName(), workingDirectory.toString());
        assertEquals(0, result.exitStatus(), result.output());
        for (int rank = 0; rank < 2; rank++) {
            List<String> entries = Files.readAllLines(workingDirectory.resolve("class-path-rank-" + rank + ".txt"));
            assertEquals(testClasses.toString(), entries.getFirst(), "--classpath comes first: " + entries);
            assertFalse(entries.contains(workingDirectory.toString()), "working directory on the class path: "
                    + entries);
        }
    }
}
