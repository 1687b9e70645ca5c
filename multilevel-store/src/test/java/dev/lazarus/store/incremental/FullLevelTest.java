package dev.lazarus.store.incremental;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lazarus.store.ElementType;
import dev.lazarus.store.ProtectedRegion;
import dev.lazarus.store.dirty.AllPagesScanner;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A checkpoint level on a full file system (a 1 MiB tmpfs, mounted here; the tests run as root): the checkpoint
 * fails with one line naming the file and the reason, which the runtime reports as a failed checkpoint.
 */
class FullLevelTest {
    @TempDir
    Path dir;

    private Path l1;
    private boolean mounted;

    @BeforeEach
    void mountSmallTmpfs() throws Exception {
        l1 = Files.createDirectory(dir.resolve("l1"));
        mounted = run("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", l1.toString()) == 0;
        assumeTrue(mounted, "cannot mount a tmpfs here (not root?)");
    }

    @AfterEach
    void unmount() throws Exception {
        if (mounted && run("umount", l1.toString()) != 0) {
            run("umount", "-l", l1.toString());
        }
    }

    private static int run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return -1;
        }
        return process.exitValue();
    }

    @Test
    void aFullLevelFailsTheCheckpointInOneLineNamingTheFile() throws IOException {
        CheckpointDirectory directory = new CheckpointDirectory(l1, "job");
        try (Arena arena = Arena.ofConfined();
             var checkpointer = new IncrementalCheckpointer(directory, 0, 1, 4096, 10, new AllPagesScanner("all"))) {
            checkpointer.protect(ProtectedRegion.of("x", ElementType.DOUBLE, arena.allocate(4 << 20)));
            IOException e = assertThrows(IOException.class, () -> checkpointer.checkpoint(1));
            assertEquals(directory.dataFile(1, 0) + ": No space left on device", e.getMessage());
        }
    }
}
