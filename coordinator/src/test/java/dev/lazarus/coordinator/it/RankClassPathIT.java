package dev.lazarus.coordinator.it;

import dev.lazarus.testing.LazarusProcess;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ranks load classes only from the class path Lazarus gives them. Open MPI puts the working directory first on
 * the class path of an executable named java, where any class file would shadow Lazarus's own; the launcher starts
 * the rank JVMs through env so that it does not. MPJ's ranks' JVM, which the launcher starts itself, has the runtime
 * on its class path and each rank thread {@code --classpath} and the backend on its own.
 */
class RankClassPathIT {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"openmpi", "mpj"})
    void aRankDoesNotLoadClassesFromTheWorkingDirectory(String backend, @TempDir Path workingDirectory)
            throws Exception {
        Files.createDirectories(workingDirectory.resolve("npb"));
        Files.writeString(workingDirectory.resolve("npb/CG.class"), "a class file a user left here");
        Path testClasses = Path.of(ClassPathProbeApp.class.getProtectionDomain().getCodeSource().getLocation()
                .toURI());
        LazarusProcess.Result result = LazarusProcess.run(workingDirectory, Duration.ofMinutes(2), "run", "--np",
                "2", "--backend", backend, "--classpath", testClasses.toString(), "--timeout", "100",
                ClassPathProbeApp.class.getName(), workingDirectory.toString());
        assertEquals(0, result.exitStatus(), result.output());
        for (int rank = 0; rank < 2; rank++) {
            List<String> entries = Files.readAllLines(workingDirectory.resolve("class-path-rank-" + rank + ".txt"));
            assertFalse(entries.contains(workingDirectory.toString()), "working directory on the class path: "
                    + entries);
            if (backend.equals("openmpi")) {
                assertEquals(testClasses.toString(), entries.getFirst(), "--classpath comes first: " + entries);
            } else {
                // The JVM's class path (MPJ's starter jars, the runtime and the bundled applications), then the
                // rank's: --classpath, then the backend.
                int own = entries.indexOf(testClasses.toString());
                int bundled = entries.indexOf(entries.stream().filter(e -> e.contains("lazarus-npb-java-"))
                        .findFirst().orElse("none"));
                assertTrue(bundled >= 0 && bundled < own, entries.toString());
                assertTrue(entries.get(own + 1).contains("lazarus-mpi-mpj-"), entries.toString());
            }
        }
    }
}
