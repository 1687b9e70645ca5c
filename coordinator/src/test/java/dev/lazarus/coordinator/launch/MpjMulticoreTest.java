package dev.lazarus.coordinator.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class MpjMulticoreTest {

    @Test
    void theBundledJarsAreSharedAndTheRestIsPerRank() {
        List<Path> bundled = List.of(Path.of("/opt/npb/lazarus-npb-java.jar"), Path.of("/opt/npb/lib/core.jar"));
        Path user = Path.of("/home/u/my-app.jar");
        Path sameArtifact = Path.of("/home/u/lib/core.jar");
        Path backend = Path.of("/opt/mpj/lazarus-mpi-mpj.jar");
        MpjMulticore.ClassPaths paths = MpjMulticore.split(List.of(user, sameArtifact, bundled.get(0),
                bundled.get(1), backend), bundled);
        assertEquals(bundled, paths.shared());
        assertEquals(List.of(user, backend), paths.perRank(), "a jar of a bundled jar's name is that jar");
    }

    @Test
    void theCommandRunsMpjsStarterWithBothClassPaths() {
        Path home = Path.of("/opt/mpj");
        MpjMulticore.ClassPaths paths = new MpjMulticore.ClassPaths(List.of(Path.of("/a.jar"), Path.of("/b.jar")),
                List.of(Path.of("/u"), Path.of("/mpj-backend.jar")));
        List<String> command = MpjMulticore.command(Path.of("/jdk/bin/java"), home, paths, List.of("-Xmx1g"), 4,
                List.of("Main", "app", "--x"));
        assertEquals(List.of("/jdk/bin/java", "-cp", "/opt/mpj/lib/smpdev.jar:/opt/mpj/lib/xdev.jar:"
                + "/opt/mpj/lib/mpjbuf.jar:/opt/mpj/lib/loader2.jar:/opt/mpj/lib/starter.jar:/opt/mpj/lib/mpiExp.jar:"
                + "/a.jar:/b.jar", "-Xmx1g", "runtime.starter.MulticoreStarter", "/opt/mpj/lib", "4", "smpdev",
                "useLocalLoader", "/u:/mpj-backend.jar", "Main", "app", "--x"), command);
    }

    @Test
    void anMpjHomeWithoutAJarTheRanksNeedIsRefused(@TempDir Path home) throws IOException {
        Files.createDirectories(home.resolve("lib"));
        for (String jar : MpjMulticore.STARTER_JARS) {
            Files.createFile(home.resolve("lib").resolve(jar));
        }
        assertEquals("backend mpj is not installed: no lib/mpi.jar in MPJ_HOME=" + home
                + " (scripts/setup prepares it)", assertThrows(IllegalArgumentException.class,
                        () -> MpjMulticore.checkInstalled(home)).getMessage());
        for (String jar : MpjMulticore.RANK_JARS) {
            Files.createFile(home.resolve("lib").resolve(jar));
        }
        assertDoesNotThrow(() -> MpjMulticore.checkInstalled(home));
    }
}
