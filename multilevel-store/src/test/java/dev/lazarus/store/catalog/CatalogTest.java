package dev.lazarus.store.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.store.ElementType;
import dev.lazarus.store.ProtectedRegion;
import dev.lazarus.store.dirty.AllPagesScanner;
import dev.lazarus.store.incremental.IncrementalCheckpointer;
import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.store.level.l2.FileKind;
import dev.lazarus.store.level.l2.L2Scheme;
import dev.lazarus.store.level.l2.NodePayload;
import dev.lazarus.store.level.l2.ParityFiles;
import dev.lazarus.store.level.l2.ParityManifest;
import dev.lazarus.store.level.l2.ParityStatus;
import dev.lazarus.store.level.l2.PayloadFile;
import dev.lazarus.store.level.l2.PayloadTable;
import dev.lazarus.store.level.xor.XorSetLayout;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.CRC32C;
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

    /**
     * On L1 the catalog reads the node's L2 parity beside each version: none, complete (member and set from its
     * manifest), or damaged with the reason; a catalog of a level without parity reports none whatever lies there.
     */
    @Test
    void anL1CatalogReportsTheNodesParityOfEachVersion(@TempDir Path root) throws IOException {
        CheckpointDirectory l1 = twoRanks(root);
        PayloadTable mine;
        try (NodePayload payload = NodePayload.open(l1, 3)) {
            mine = payload.table();
        }
        List<PayloadTable> tables = List.of(mine, new PayloadTable(List.of(
                new PayloadFile(2, FileKind.MANIFEST, 300, 0), new PayloadFile(2, FileKind.DATA, 9000, 0))));
        XorSetLayout layout = ParityManifest.layoutOf(tables);
        byte[] parity = new byte[(int) L2Scheme.XOR.paritySize(layout, 0)];
        CRC32C crc = new CRC32C();
        crc.update(parity);
        Files.write(ParityFiles.parity(l1, 3), parity);
        Files.write(ParityFiles.manifest(l1, 3), new ParityManifest(L2Scheme.XOR, "job", 3, 4, 0,
                List.of("10.0.0.1:7400", "10.0.0.2:7400"), tables, layout.chunkSize(), (int) crc.getValue())
                .encode());

        Catalog catalog = new Catalog(l1, true);
        assertEquals(ParityStatus.NONE, catalog.status(2, true).l2());
        ParityStatus three = catalog.status(3, true).l2();
        assertTrue(three.complete(), String.valueOf(three.problem()));
        assertEquals(4, three.manifest().setId());
        assertEquals(2, three.manifest().setSize());
        assertEquals(ParityStatus.NONE, new Catalog(l1).status(3, true).l2(), "a level without parity");

        parity[5] ^= 1;
        Files.write(ParityFiles.parity(l1, 3), parity);
        assertTrue(catalog.status(3, false).l2().complete(), "without data verification only sizes are checked");
        assertEquals(ParityFiles.parity(l1, 3) + ": checksum mismatch", catalog.status(3, true).l2().problem());
        assertTrue(catalog.status(3, true).complete(), "a damaged parity leaves the version's own files usable");
    }
}
