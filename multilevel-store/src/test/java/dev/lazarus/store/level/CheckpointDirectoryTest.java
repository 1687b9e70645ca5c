package dev.lazarus.store.level;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointDirectoryTest {

    /** A version's directory is "v" and twelve digits, and listing the job's versions reads them back. */
    @Test
    void versionDirectoriesAreNamedInTwelveDigitsAndListedBack(@TempDir Path root) throws IOException {
        CheckpointDirectory level = new CheckpointDirectory(root, "job");
        assertEquals(root.resolve("job").resolve("v000000000000"), level.versionDirectory(0));
        assertEquals(root.resolve("job").resolve("v000000000042"), level.versionDirectory(42));
        assertEquals(root.resolve("job").resolve("v999999999999"), level.versionDirectory(999_999_999_999L));
        for (long version : List.of(999_999_999_999L, 0L, 42L, 1_000_000L)) {
            level.createVersion(version);
        }
        assertEquals(List.of(0L, 42L, 1_000_000L, 999_999_999_999L), level.versions());
        assertThrows(IllegalArgumentException.class, () -> level.versionDirectory(-1));
        assertThrows(IllegalArgumentException.class, () -> level.versionDirectory(1_000_000_000_000L));
    }
}
