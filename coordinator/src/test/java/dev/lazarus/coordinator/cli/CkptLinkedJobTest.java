package dev.lazarus.coordinator.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lazarus.coordinator.launch.InstallLayout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ckpt commands refuse a job directory that is a link in one line, status 2, and delete nothing through it. */
class CkptLinkedJobTest {
    @TempDir
    Path dir;

    @Test
    void eachCommandRefusesALinkedJobDirectory() throws Exception {
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere/v000000000001"));
        byte[] bytes = "someone else's\n".getBytes(StandardCharsets.US_ASCII);
        Path victim = Files.write(elsewhere.resolve("rank-0.manifest"), bytes);
        Path l1 = Files.createDirectory(dir.resolve("l1"));
        Path job = Files.createSymbolicLink(l1.resolve("heat"), dir.resolve("elsewhere"));
        for (List<String> command : List.of(List.of("rm", "--all"), List.of("list"), List.of("verify"))) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            List<String> args = new ArrayList<>(List.of("ckpt", command.getFirst(), "--job", "heat", "--l1",
                    l1.toString()));
            args.addAll(command.subList(1, command.size()));
            int status = LazarusCli.execute(args.toArray(String[]::new), new InstallLayout(dir), dir, Map.of(),
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            assertEquals("lazarus: refusing " + job + ": it is a symbolic link\n",
                    err.toString(StandardCharsets.UTF_8), command.toString());
            assertEquals(2, status, command.toString());
            assertArrayEquals(bytes, Files.readAllBytes(victim));
        }
    }
}
