package dev.lazarus.store.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.store.ElementType;
import dev.lazarus.store.ProtectedRegion;
import dev.lazarus.store.dirty.AllPagesScanner;
import dev.lazarus.store.incremental.IncrementalCheckpointer;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CatalogTest {

    /** Two ranks write versions 1..3 (3 increments 2, which increments full 1). */
    private static CheckpointDirectory twoRanks(Path root) throws IOException {
        CheckpointDirectory level = new CheckpointDirectory(root, "job");
        for (int rank = 0; rank < 2; rank++) {
            double[] x = new double[1024];
            try (var ckpt = new IncrementalCheckpointer(level, rank, 2, 512, 10, new AllPagesScanner("all"))) {
                ckpt.protect(ProtectedRegion.of("x", ElementType.DOUBLE, MemorySegment.ofArray(x)));
                for (int v = 1; v <= 3; v++) {
                    x[v * 100] = v + rank;
                    ckpt.checkpoint(v);
                }
            }
        }
        return level;
    }

    @Test
    void intactVersionsAreComplete(@TempDir Path root) throws IOException {
        Catalog catalog = new Catalog(twoRanks(root));
        List<VersionStatus> statuses = catalog.scan(true);
        assertEquals(List.of(1L, 2L, 3L), statuses.stream().map(VersionStatus::version).toList());
        for (VersionStatus status : statuses) {
            assertTrue(status.complete(), status.problems()::toString);
            assertEquals(List.of(0, 1), status.ranksUsable());
            assertEquals(2, status.worldSize());
        }
        assertTrue(statuses.get(0).full());
        assertFalse(statuses.get(2).full());
        assertEquals(3, catalog.newestComplete(true).orElseThrow().version());
    }

    @Test
    void aMissingRankOrABrokenChainSkipsToAnOlderVersion(@TempDir Path root) throws IOException {
        CheckpointDirectory level = twoRanks(root);
        Files.delete(level.manifestFile(3, 1));
        Catalog catalog = new Catalog(level);
        VersionStatus three = catalog.status(3, false);
        assertFalse(three.complete());
        assertEquals(List.of("ranks [1] have no manifest"), three.problems());
        assertEquals(2, catalog.newestComplete(false).orElseThrow().version());

        // Damage rank 0's data of version 2: 2 is unusable and so is 3, whose chain runs through it.
        byte[] data = Files.readAllBytes(level.dataFile(2, 0));
        data[3] ^= 0x40;
        Files.write(level.dataFile(2, 0), data);
        assertTrue(catalog.status(2, false).complete(), "manifests alone cannot see data damage");
        VersionStatus two = catalog.status(2, true);
        assertEquals(List.of("rank 0: " + level.dataFile(2, 0)
                + ": chunk 0 (variable x offset=1536 length=512) checksum mismatch"), two.problems());
        assertEquals(1, catalog.newestComplete(true).orElseThrow().version());
    }
}
