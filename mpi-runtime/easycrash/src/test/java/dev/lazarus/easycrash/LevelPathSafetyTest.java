package dev.lazarus.easycrash;

import dev.lazarus.checkpoint.CheckpointSettings;
import dev.lazarus.mpi.local.SingleRankComm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A run that asked for checkpoints whose job directory on L1 or L3 is a link or another user's is refused at its
 * start, in one line, instead of running with every checkpoint failing.
 */
class LevelPathSafetyTest {
    @TempDir
    Path dir;

    private CheckpointSettings settings(Path l1, Path l3) {
        Properties properties = new Properties();
        properties.setProperty(CheckpointSettings.JOB_ID, "job");
        properties.setProperty(CheckpointSettings.L1_DIR, l1.toString());
        properties.setProperty(CheckpointSettings.PFS_DIR, l3 == null ? "off" : l3.toString());
        properties.setProperty(CheckpointSettings.EVERY, "5");
        return new CheckpointSettings(properties, Map.of()).conclude("app");
    }

    private static String refusedAtOpen(CheckpointSettings settings) {
        return assertThrows(IllegalArgumentException.class,
                () -> LevelCheckpoints.open(new SingleRankComm(), settings, null).close()).getMessage();
    }

    @Test
    void aLinkedL1JobDirectoryRefusesTheRun() throws Exception {
        Path elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
        Path l1 = Files.createDirectory(dir.resolve("l1"));
        Path job = Files.createSymbolicLink(l1.resolve("job"), elsewhere);
        assertEquals("rank 0: refusing " + job + ": it is a symbolic link", refusedAtOpen(settings(l1, null)));
        try (Stream<Path> entries = Files.list(elsewhere)) {
            assertEquals(List.of(), entries.toList());
        }
    }

    @Test
    void anL3JobDirectoryOfAnotherUserRefusesTheRun() throws Exception {
        Path l3 = Files.createDirectory(dir.resolve("l3"));
        Path job = Files.createDirectory(l3.resolve("job"));
        Files.setAttribute(job, "unix:uid", 65534);
        String message = refusedAtOpen(settings(dir.resolve("l1"), l3));
        assertTrue(message.startsWith("rank 0: refusing " + job + ": it is owned by uid 65534"), message);
    }
}
