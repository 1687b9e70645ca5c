package dev.lazarus.easycrash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.mpi.local.SingleRankComm;
import dev.lazarus.store.files.UnsafePathException;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The NVM side of "never write through a link": a job directory that is a link or another user's, and links planted
 * at the heap's, the object directory's and the lock's names, are refused in one line and what they point at is left
 * byte for byte as it was; EasyCrash's start turns the refusal into the job's one line.
 */
class NvmPathSafetyTest {
    private static final long CAPACITY = 1 << 20;
    private static final int NOBODY = 65534;
    private static final byte[] VICTIM_BYTES = "not yours to overwrite\n".getBytes();

    @TempDir
    Path dir;

    private Path nvm;
    private Path victimDirectory;
    private Path victim;

    @BeforeEach
    void setUp() throws Exception {
        nvm = Files.createDirectory(dir.resolve("nvm"));
        victimDirectory = Files.createDirectory(dir.resolve("elsewhere"));
        victim = victimDirectory.resolve("victim");
        Files.write(victim, VICTIM_BYTES);
        Files.setPosixFilePermissions(victim, PosixFilePermissions.fromString("rw-r--r--"));
    }

    private PersistentHeap.Config config() {
        return new PersistentHeap.Config(nvm, "job", 0, 1, CAPACITY, "app", null);
    }

    private void assertVictimUntouched() throws Exception {
        assertArrayEquals(VICTIM_BYTES, Files.readAllBytes(victim));
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(victim)));
        try (Stream<Path> entries = Files.list(victimDirectory)) {
            assertEquals(List.of(victim), entries.toList(), "nothing written beside the victim");
        }
    }

    @Test
    void jobDirectoryThatIsALinkIsRefusedBeforeAnythingIsWritten() throws Exception {
        Path job = Files.createSymbolicLink(nvm.resolve("job"), victimDirectory);
        UnsafePathException open = assertThrows(UnsafePathException.class, () -> PersistentHeap.open(config()));
        assertEquals("refusing " + job + ": it is a symbolic link", open.getMessage());
        assertThrows(UnsafePathException.class,
                () -> PersistentHeap.openFresh(config(), RecoveryState.fresh("restart off")));
        assertVictimUntouched();
    }

    @Test
    void jobDirectoryOfAnotherUserIsRefused() throws Exception {
        Path job = Files.createDirectory(nvm.resolve("job"));
        Files.setAttribute(job, "unix:uid", NOBODY);
        UnsafePathException e = assertThrows(UnsafePathException.class, () -> PersistentHeap.open(config()));
        assertTrue(e.getMessage().startsWith("refusing " + job + ": it is owned by uid " + NOBODY + ", not by "),
                e.getMessage());
        try (Stream<Path> entries = Files.list(job)) {
            assertEquals(0, entries.count(), "no lock or heap created in it");
        }
    }

    @Test
    void linksAtTheHeapObjectDirectoryAndLockNamesAreNeverFollowed() throws Exception {
        Path job = Files.createDirectory(nvm.resolve("job"));
        for (String name : List.of("rank-0.heap", "rank-0.objects", "rank-0.lock")) {
            Files.deleteIfExists(job.resolve(name)); // the lock file an earlier round left
            Path link = Files.createSymbolicLink(job.resolve(name), victim);
            UnsafePathException open = assertThrows(UnsafePathException.class, () -> PersistentHeap.open(config()));
            assertEquals("refusing " + link + ": it is a symbolic link", open.getMessage(), name);
            UnsafePathException fresh = assertThrows(UnsafePathException.class,
                    () -> PersistentHeap.openFresh(config(), RecoveryState.fresh("restart off")));
            assertEquals("refusing " + link + ": it is a symbolic link", fresh.getMessage(), name);
            assertVictimUntouched();
            assertTrue(Files.isSymbolicLink(link), "the link is left where it was: " + name);
            Files.delete(link);
            try (Stream<Path> entries = Files.list(job)) {
                entries.filter(p -> !p.getFileName().toString().endsWith(".lock")).forEach(p -> {
                    throw new AssertionError("nothing else created or moved: " + p);
                });
            }
        }
    }

    @Test
    void aLinkDanglingAtTheHeapNameIsRefusedToo() throws Exception {
        Path job = Files.createDirectory(nvm.resolve("job"));
        Path target = victimDirectory.resolve("would-be-created");
        Path link = Files.createSymbolicLink(job.resolve("rank-0.heap"), target);
        assertEquals("refusing " + link + ": it is a symbolic link",
                assertThrows(UnsafePathException.class, () -> PersistentHeap.open(config())).getMessage());
        assertTrue(Files.notExists(target, LinkOption.NOFOLLOW_LINKS));
        assertVictimUntouched();
    }

    @Test
    void startRefusesTheJobInOneLine() throws Exception {
        Path job = Files.createSymbolicLink(nvm.resolve("job"), victimDirectory);
        Properties properties = new Properties();
        properties.setProperty(EasyCrashSettings.NVM_DIR, nvm.toString());
        properties.setProperty(EasyCrashSettings.JOB_ID, "job");
        EasyCrashSettings settings = new EasyCrashSettings(properties, Map.of());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EasyCrash.start(
                new SingleRankComm(), "app", "app", List.of("r0"), 4096, settings, null, null));
        assertEquals("rank 0: refusing " + job + ": it is a symbolic link", e.getMessage());
        assertVictimUntouched();
    }
}
