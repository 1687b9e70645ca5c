package dev.lazarus.store.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.store.CorruptCheckpointException;
import dev.lazarus.store.ElementType;
import dev.lazarus.store.ProtectedRegion;
import dev.lazarus.store.dirty.AllPagesScanner;
import dev.lazarus.store.format.DataFileReader;
import dev.lazarus.store.format.DataFileWriter;
import dev.lazarus.store.format.ManifestFiles;
import dev.lazarus.store.format.RankManifest;
import dev.lazarus.store.incremental.IncrementalCheckpointer;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Links planted where a job's directory, a version's directory or a checkpoint file belongs, and directories of
 * another user, are refused with one line before anything is written, and what they point at stays as it was.
 */
class SecureFilesTest {
    private static final int NOBODY = 65534;
    private static final byte[] VICTIM_BYTES = "not yours to overwrite\n".getBytes();

    @TempDir
    Path dir;

    private Path root;
    private Path victim;
    private Path victimDirectory;
    private CheckpointDirectory l1;

    @BeforeEach
    void setUp() throws IOException {
        root = dir.resolve("l1");
        victimDirectory = Files.createDirectory(dir.resolve("elsewhere"));
        victim = victimDirectory.resolve("victim");
        Files.write(victim, VICTIM_BYTES);
        Files.setPosixFilePermissions(victim, PosixFilePermissions.fromString("rw-r--r--"));
        l1 = new CheckpointDirectory(root, "job");
    }

    /** Writes version {@code version} of one 64 KiB variable with the checkpointer a rank uses. */
    private void checkpoint(long version) throws IOException {
        try (Arena arena = Arena.ofConfined();
             var checkpointer = new IncrementalCheckpointer(l1, 0, 1, 4096, 10, new AllPagesScanner("all"))) {
            MemorySegment x = arena.allocate(64 << 10);
            checkpointer.protect(ProtectedRegion.of("x", ElementType.DOUBLE, x));
            checkpointer.checkpoint(version);
        }
    }

    private void assertVictimUntouched() throws IOException {
        assertArrayEquals(VICTIM_BYTES, Files.readAllBytes(victim));
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(victim)));
        try (Stream<Path> entries = Files.list(victimDirectory)) {
            assertEquals(List.of(victim), entries.toList(), "nothing written beside the victim");
        }
    }

    private static void assertRefused(Path path, String why, Exception e) {
        assertEquals("refusing " + path + ": " + why, e.getMessage());
    }

    @Test
    void jobDirectoryThatIsALinkIsRefusedBeforeAnythingIsWritten() throws IOException {
        Files.createDirectories(root);
        Path job = Files.createSymbolicLink(root.resolve("job"), victimDirectory);
        assertRefused(job, "it is a symbolic link", assertThrows(UnsafePathException.class, () -> checkpoint(1)));
        assertRefused(job, "it is a symbolic link", assertThrows(UnsafePathException.class, l1::versions));
        assertRefused(job, "it is a symbolic link",
                assertThrows(UnsafePathException.class, () -> l1.deleteVersion(1)));
        assertVictimUntouched();
    }

    @Test
    void jobDirectoryOfAnotherUserIsRefused() throws IOException {
        Path job = Files.createDirectories(root.resolve("job"));
        Files.setAttribute(job, "unix:uid", NOBODY);
        UnsafePathException e = assertThrows(UnsafePathException.class, () -> checkpoint(1));
        assertTrue(e.getMessage().startsWith("refusing " + job + ": it is owned by uid " + NOBODY + ", not by "),
                e.getMessage());
        try (Stream<Path> entries = Files.list(job)) {
            assertEquals(0, entries.count(), "nothing created in it");
        }
    }

    @Test
    void versionDirectoryThatIsALinkIsRefusedAndNotListed() throws IOException {
        checkpoint(1);
        Path version = Files.createSymbolicLink(l1.versionDirectory(2), victimDirectory);
        try (Arena arena = Arena.ofConfined();
             var checkpointer = new IncrementalCheckpointer(l1, 0, 1, 4096, 10, new AllPagesScanner("all"))) {
            checkpointer.protect(ProtectedRegion.of("x", ElementType.DOUBLE, arena.allocate(4096)));
            assertRefused(version, "it is a symbolic link",
                    assertThrows(UnsafePathException.class, () -> checkpointer.checkpoint(2)));
        }
        assertEquals(List.of(1L), l1.versions(), "a link is no version");
        assertRefused(version, "it is a symbolic link",
                assertThrows(UnsafePathException.class, () -> l1.deleteVersion(2)));
        assertVictimUntouched();
    }

    @Test
    void versionDirectoryOfAnotherUserIsRefused() throws IOException {
        checkpoint(1);
        Path version = Files.createDirectory(l1.versionDirectory(2));
        Files.setAttribute(version, "unix:uid", NOBODY);
        UnsafePathException e = assertThrows(UnsafePathException.class, () -> checkpoint(2));
        assertTrue(e.getMessage().startsWith("refusing " + version + ": it is owned by uid " + NOBODY),
                e.getMessage());
    }

    @Test
    void dataFileThatIsALinkIsNeverFollowed() throws IOException {
        l1.createVersion(1);
        Path data = Files.createSymbolicLink(l1.dataFile(1, 0), victim);
        assertRefused(data, "it is a symbolic link", assertThrows(UnsafePathException.class, () -> checkpoint(1)));
        assertRefused(data, "it is a symbolic link",
                assertThrows(UnsafePathException.class, () -> new DataFileWriter(data, true).close()));
        assertVictimUntouched();
        assertTrue(Files.isSymbolicLink(data), "the link itself is left for the user to look at");
    }

    @Test
    void manifestThatIsALinkIsNeverFollowed() throws IOException {
        l1.createVersion(1);
        Path manifest = Files.createSymbolicLink(l1.manifestFile(1, 0), victim);
        assertRefused(manifest, "it is a symbolic link",
                assertThrows(UnsafePathException.class, () -> checkpoint(1)));
        assertVictimUntouched();
        assertFalse(Files.exists(manifest.resolveSibling("rank-0.manifest.tmp"), LinkOption.NOFOLLOW_LINKS),
                "no temporary file left");
        Path temporary = Files.createSymbolicLink(manifest.resolveSibling("rank-0.manifest.tmp"), victim);
        Files.delete(manifest);
        assertRefused(temporary, "it is a symbolic link",
                assertThrows(UnsafePathException.class, () -> checkpoint(1)));
        assertVictimUntouched();
    }

    @Test
    void readingALinkedCheckpointFileSaysItIsALink() throws IOException {
        checkpoint(1);
        RankManifest manifest = ManifestFiles.read(l1.manifestFile(1, 0));
        Path data = l1.dataFile(1, 0);
        Files.move(data, dir.resolve("moved.data"));
        Files.createSymbolicLink(data, dir.resolve("moved.data"));
        CorruptCheckpointException e = assertThrows(CorruptCheckpointException.class,
                () -> new DataFileReader(data, manifest).close());
        assertRefused(data, "it is a symbolic link", e);
        assertRefused(data, "it is a symbolic link", assertThrows(CorruptCheckpointException.class,
                () -> new DataFileReader(data, manifest, DataFileReader.Access.DIRECT).close()));
        Path file = l1.manifestFile(1, 0);
        Files.move(file, dir.resolve("moved.manifest"));
        Files.createSymbolicLink(file, dir.resolve("moved.manifest"));
        assertRefused(file, "it is a symbolic link",
                assertThrows(CorruptCheckpointException.class, () -> ManifestFiles.read(file)));
    }

    @Test
    void aReservedFileIsCreated0600WithItsSpaceAndNeverThroughALink() throws IOException {
        Path file = dir.resolve("reserved");
        SecureFiles.createReserved(file, 1 << 20);
        assertEquals(1 << 20, Files.size(file));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        Path link = Files.createSymbolicLink(dir.resolve("link"), victim);
        assertRefused(link, "it is a symbolic link",
                assertThrows(UnsafePathException.class, () -> SecureFiles.createReserved(link, 4096)));
        assertVictimUntouched();
        Path huge = dir.resolve("huge");
        IOException e = assertThrows(IOException.class, () -> SecureFiles.createReserved(huge, Long.MAX_VALUE));
        assertFalse(e instanceof SecureFiles.NoRoomException, "too large is not the same as no room: " + e);
        assertTrue(e.getMessage().startsWith(huge + ": cannot reserve " + Long.MAX_VALUE + " bytes: "),
                e.getMessage());
        assertFalse(Files.exists(huge, LinkOption.NOFOLLOW_LINKS), "nothing left behind");
    }

    @Test
    void createdDirectoriesAre0700AndFiles0600() throws IOException {
        checkpoint(1);
        for (Path directory : List.of(root.resolve("job"), l1.versionDirectory(1))) {
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(directory)));
        }
        for (Path file : List.of(l1.dataFile(1, 0), l1.manifestFile(1, 0))) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        }
    }

    @Test
    void deletingATreeRemovesLinksInItButNeverWhatTheyPointAt() throws IOException {
        Path scratch = Files.createDirectories(dir.resolve("scratch/a/b"));
        Files.write(scratch.resolve("data"), new byte[10]);
        Files.createSymbolicLink(scratch.resolve("to-victim"), victim);
        Files.createSymbolicLink(dir.resolve("scratch/to-elsewhere"), victimDirectory);
        SecureFiles.deleteTree(dir.resolve("scratch"));
        assertFalse(Files.exists(dir.resolve("scratch"), LinkOption.NOFOLLOW_LINKS));
        assertVictimUntouched();
        SecureFiles.deleteTree(dir.resolve("scratch")); // nothing there: nothing to do
    }
}
