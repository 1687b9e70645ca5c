package dev.lazarus.easycrash;

import dev.lazarus.easycrash.heap.NvmDirectoryFullException;
import dev.lazarus.mpi.local.SingleRankComm;
import dev.lazarus.store.ElementType;
import dev.lazarus.store.ProtectedRegion;
import dev.lazarus.store.dirty.AllPagesScanner;
import dev.lazarus.store.incremental.IncrementalCheckpointer;
import dev.lazarus.store.level.CheckpointDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * An NVM directory or a checkpoint level on a full file system (a 1 MiB tmpfs, mounted here; the tests run as root).
 * The heap's space is reserved when it is created, so the job stops at once with one line naming the directory,
 * instead of a fault (InternalError) on the first store into a page the file system cannot back; a checkpoint fails
 * with one line naming the file and the reason, which the runtime reports as a failed checkpoint.
 */
class FullFileSystemTest {
    private static final long HEAP = 8L << 20;

    @TempDir
    Path dir;

    private Path tmpfs;
    private boolean mounted;

    @BeforeEach
    void mountSmallTmpfs() throws Exception {
        tmpfs = Files.createDirectory(dir.resolve("small"));
        mounted = run("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", tmpfs.toString()) == 0;
        assumeTrue(mounted, "cannot mount a tmpfs here (not root?)");
    }

    @AfterEach
    void unmount() throws Exception {
        // Lazily if a mapping is still held (a failing run may leak one), so that no mount outlives the test.
        if (mounted && run("umount", tmpfs.toString()) != 0) {
            run("umount", "-l", tmpfs.toString());
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

    private String noRoom() {
        return "NVM directory " + tmpfs + " has no room for a 8 MiB heap (No space left on device)";
    }

    @Test
    void aHeapThatDoesNotFitIsRefusedWhenCreatedNotWhenFirstWritten() throws Exception {
        PersistentHeap.Config config = new PersistentHeap.Config(tmpfs, "job", 0, 1, HEAP, "app", null);
        NvmDirectoryFullException e = assertThrows(NvmDirectoryFullException.class, () -> {
            try (PersistentHeap heap = PersistentHeap.open(config)) {
                heap.doubles("u", (int) (HEAP / 2 / Double.BYTES), ObjectRole.CANDIDATE).set(0, 1.0);
            }
        });
        assertEquals(noRoom(), e.getMessage());
        try (Stream<Path> entries = Files.list(tmpfs.resolve("job"))) {
            assertEquals(List.of("rank-0.lock"), entries.map(p -> p.getFileName().toString()).toList(),
                    "no partial heap left behind");
        }
    }

    @Test
    void aHeapThatFitsWithoutItsObjectDirectoryIsRefusedToo() throws Exception {
        long heap = 900 << 10; // of the tmpfs's 1 MiB: Chronicle Map cannot reserve its file beside it
        PersistentHeap.Config config = new PersistentHeap.Config(tmpfs, "job", 0, 1, heap, "app", null);
        NvmDirectoryFullException e = assertThrows(NvmDirectoryFullException.class, () -> PersistentHeap.open(config));
        assertEquals("NVM directory " + tmpfs + " has no room for a 900 KiB heap (No space left on device)",
                e.getMessage());
        try (Stream<Path> entries = Files.list(tmpfs.resolve("job"))) {
            assertEquals(List.of("rank-0.lock"), entries.map(p -> p.getFileName().toString()).toList(),
                    "neither the heap nor a partial object directory left behind");
        }
    }

    @Test
    void aFullLevelFailsTheCheckpointInOneLineNamingTheFile() throws IOException {
        CheckpointDirectory directory = new CheckpointDirectory(tmpfs, "job");
        try (Arena arena = Arena.ofConfined();
             var checkpointer = new IncrementalCheckpointer(directory, 0, 1, 4096, 10, new AllPagesScanner("all"))) {
            checkpointer.protect(ProtectedRegion.of("x", ElementType.DOUBLE, arena.allocate(4 << 20)));
            IOException e = assertThrows(IOException.class, () -> checkpointer.checkpoint(1));
            assertEquals(directory.dataFile(1, 0) + ": No space left on device", e.getMessage());
        }
    }

    @Test
    void startStopsTheJobWithOneLine() {
        Properties properties = new Properties();
        properties.setProperty(EasyCrashSettings.NVM_DIR, tmpfs.toString());
        properties.setProperty(EasyCrashSettings.JOB_ID, "job");
        properties.setProperty(EasyCrashSettings.HEAP_SIZE, "8m");
        EasyCrashSettings settings = new EasyCrashSettings(properties, Map.of());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EasyCrash.start(
                new SingleRankComm(), "app", "app", List.of("r0"), 4096, settings, null, null));
        assertEquals("rank 0: " + noRoom(), e.getMessage());
    }
}
