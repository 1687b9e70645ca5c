package dev.lazarus.easycrash;

import dev.lazarus.easycrash.heap.NvmDirectoryFullException;
import dev.lazarus.mpi.local.SingleRankComm;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
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
 * An NVM directory on a full file system (a 1 MiB tmpfs, mounted here; the tests run as root): the heap's space is
 * reserved when it is created, so the job stops at once with one line naming the directory, instead of a fault
 * (InternalError) on the first store into a page the file system cannot back.
 */
class NvmFullTest {
    private static final long HEAP = 8L << 20;

    @TempDir
    Path dir;

    private Path nvm;
    private boolean mounted;

    @BeforeEach
    void mountSmallTmpfs() throws Exception {
        nvm = Files.createDirectory(dir.resolve("nvm"));
        mounted = run("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", nvm.toString()) == 0;
        assumeTrue(mounted, "cannot mount a tmpfs here (not root?)");
    }

    @AfterEach
    void unmount() throws Exception {
        // Lazily if a mapping is still held (a failing run may leak one), so that no mount outlives the test.
        if (mounted && run("umount", nvm.toString()) != 0) {
            run("umount", "-l", nvm.toString());
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
        return "NVM directory " + nvm + " has no room for a 8 MiB heap (No space left on device)";
    }

    @Test
    void aHeapThatDoesNotFitIsRefusedWhenCreatedNotWhenFirstWritten() throws Exception {
        PersistentHeap.Config config = new PersistentHeap.Config(nvm, "job", 0, 1, HEAP, "app", null);
        NvmDirectoryFullException e = assertThrows(NvmDirectoryFullException.class, () -> {
            try (PersistentHeap heap = PersistentHeap.open(config)) {
                heap.doubles("u", (int) (HEAP / 2 / Double.BYTES), ObjectRole.CANDIDATE).set(0, 1.0);
            }
        });
        assertEquals(noRoom(), e.getMessage());
        try (Stream<Path> entries = Files.list(nvm.resolve("job"))) {
            assertEquals(List.of("rank-0.lock"), entries.map(p -> p.getFileName().toString()).toList(),
                    "no partial heap left behind");
        }
    }

    @Test
    void aHeapThatFitsWithoutItsObjectDirectoryIsRefusedToo() throws Exception {
        long heap = 900 << 10; // of the tmpfs's 1 MiB: Chronicle Map cannot reserve its file beside it
        PersistentHeap.Config config = new PersistentHeap.Config(nvm, "job", 0, 1, heap, "app", null);
        NvmDirectoryFullException e = assertThrows(NvmDirectoryFullException.class, () -> PersistentHeap.open(config));
        assertEquals("NVM directory " + nvm + " has no room for a 900 KiB heap (No space left on device)",
                e.getMessage());
        try (Stream<Path> entries = Files.list(nvm.resolve("job"))) {
            assertEquals(List.of("rank-0.lock"), entries.map(p -> p.getFileName().toString()).toList(),
                    "neither the heap nor a partial object directory left behind");
        }
    }

    @Test
    void startStopsTheJobWithOneLine() {
        Properties properties = new Properties();
        properties.setProperty(EasyCrashSettings.NVM_DIR, nvm.toString());
        properties.setProperty(EasyCrashSettings.JOB_ID, "job");
        properties.setProperty(EasyCrashSettings.HEAP_SIZE, "8m");
        EasyCrashSettings settings = new EasyCrashSettings(properties, Map.of());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EasyCrash.start(
                new SingleRankComm(), "app", "app", List.of("r0"), 4096, settings, null, null));
        assertEquals("rank 0: " + noRoom(), e.getMessage());
    }
}
