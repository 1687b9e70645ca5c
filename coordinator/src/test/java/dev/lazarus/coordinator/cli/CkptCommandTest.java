package dev.lazarus.coordinator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.coordinator.launch.InstallLayout;
import dev.lazarus.store.ElementType;
import dev.lazarus.store.ProtectedRegion;
import dev.lazarus.store.dirty.AllPagesScanner;
import dev.lazarus.store.dirty.WrittenPageScanner;
import dev.lazarus.store.dirty.uffd.WrittenPageScanners;
import dev.lazarus.store.drain.ChainComposer;
import dev.lazarus.store.incremental.IncrementalCheckpointer;
import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.store.level.l2.FileKind;
import dev.lazarus.store.level.l2.L2Scheme;
import dev.lazarus.store.level.l2.NodePayload;
import dev.lazarus.store.level.l2.ParityFiles;
import dev.lazarus.store.level.l2.ParityManifest;
import dev.lazarus.store.level.l2.PayloadFile;
import dev.lazarus.store.level.l2.PayloadTable;
import dev.lazarus.store.level.xor.XorSetLayout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CkptCommandTest {
    @TempDir
    Path dir;
    private CheckpointDirectory l1;
    private CheckpointDirectory pfs;

    private record Run(int status, String out, String err) {
    }

    /** Two ranks write versions 1 (full), 2 and 3 (increments) to L1; version 2 is drained to the PFS, whole. */
    @BeforeEach
    void writeCheckpoints() throws IOException {
        l1 = new CheckpointDirectory(dir.resolve("l1"), "heat");
        pfs = new CheckpointDirectory(dir.resolve("pfs"), "heat");
        for (int rank = 0; rank < 2; rank++) {
            double[] u = new double[2048];
            try (var ckpt = new IncrementalCheckpointer(l1, rank, 2, 512, 8, new AllPagesScanner("test"))) {
                ckpt.protect(new ProtectedRegion(new dev.lazarus.store.Variable("u", ElementType.DOUBLE,
                        new long[] {32, 64}), MemorySegment.ofArray(u)));
                for (int v = 1; v <= 3; v++) {
                    u[v * 10] = v + rank;
                    ckpt.checkpoint(v);
                }
            }
            ChainComposer.composeFull(l1, pfs, 2, rank);
        }
    }

    private Run lazarus(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] full = new String[args.length + 4];
        System.arraycopy(args, 0, full, 0, args.length);
        full[args.length] = "--l1";
        full[args.length + 1] = dir.resolve("l1").toString();
        full[args.length + 2] = "--pfs";
        full[args.length + 3] = dir.resolve("pfs").toString();
        int status = LazarusCli.execute(full, new InstallLayout(dir), dir, Map.of(),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void listShowsEveryVersionPerLevel() {
        Run run = lazarus("ckpt", "list");
        assertEquals(0, run.status(), run.err());
        String[] lines = run.out().strip().split("\n");
        // The PFS got version 2 alone, composed into a full checkpoint from the version 1 it increments.
        // Written with the all-pages scanner: the pages column and a last line say every page was hashed.
        assertEquals(6, lines.length, run.out());
        assertTrue(lines[1].matches("L1 +heat +1 complete +2/2 full +all .*"), lines[1]);
        assertTrue(lines[2].matches("L1 +heat +2 complete +2/2 incr +all .*"), lines[2]);
        assertTrue(lines[3].matches("L1 +heat +3 complete +2/2 incr +all .*"), lines[3]);
        assertTrue(lines[4].matches("L3 +heat +2 complete +2/2 full +all +\\S+ \\S+ +- *"), lines[4]);
        assertTrue(lines[5].startsWith("pages all: the page pre-filter (userfaultfd + PAGEMAP_SCAN) was unavailable"),
                lines[5]);
    }

    /** A version written with this machine's page pre-filter is listed as tracked when the kernel offers it. */
    @Test
    void theListSaysWhetherAVersionWasWrittenWithThePagePreFilter() throws IOException {
        boolean precise = true;
        for (int rank = 0; rank < 2; rank++) {
            double[] u = new double[2048];
            WrittenPageScanner scanner = WrittenPageScanners.open();
            precise &= scanner.precise();
            try (var ckpt = new IncrementalCheckpointer(l1, rank, 2, 512, 8, scanner)) {
                ckpt.protect(new ProtectedRegion(new dev.lazarus.store.Variable("u", ElementType.DOUBLE,
                        new long[] {32, 64}), MemorySegment.ofArray(u)));
                ckpt.checkpoint(4);
            }
        }
        Run run = lazarus("ckpt", "list", "--level", "l1", "--version", "4", "--json");
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().contains("\"page_filter\" : \"" + (precise ? "tracked" : "all_pages") + "\""),
                run.out());
        boolean tracked = precise;
        Run table = lazarus("ckpt", "list", "--level", "l1", "--version", "4");
        assertTrue(table.out().lines().anyMatch(l -> l.matches("L1 +heat +4 complete +2/2 full +"
                + (tracked ? "tracked" : "all") + " .*")), table.out());
        assertEquals(!tracked, table.out().contains("pages all: "), table.out());
    }

    @Test
    void verifyFindsDamageAndSetsTheExitStatus() throws IOException {
        Run clean = lazarus("ckpt", "verify", "--level", "l1", "--json");
        assertEquals(0, clean.status(), clean.err());
        assertTrue(clean.out().contains("\"all_complete\" : true"), clean.out());
        byte[] data = Files.readAllBytes(l1.dataFile(1, 1));
        data[100] ^= 4;
        Files.write(l1.dataFile(1, 1), data);
        assertEquals(0, lazarus("ckpt", "list", "--level", "l1").status(), "list reads manifests only");
        Run damaged = lazarus("ckpt", "verify", "--level", "l1");
        assertEquals(1, damaged.status(), damaged.out());
        long incomplete = damaged.out().lines().filter(l -> l.contains(" incomplete ")).count();
        assertEquals(3, incomplete, "version 1 is damaged and 2 and 3 build on it: " + damaged.out());
        assertTrue(damaged.out().contains("rank 1: " + l1.dataFile(1, 1) + ": chunk 0 (variable u offset=0"),
                damaged.out());
    }

    /**
     * Writes this node's parity of a version as member 0 of a two-node XOR set, as L2's encoder leaves it: the
     * parity (all zero here), then its manifest.
     */
    private void writeParity(long version) throws IOException {
        writeParity(version, L2Scheme.XOR);
    }

    private void writeParity(long version, L2Scheme scheme) throws IOException {
        PayloadTable mine;
        try (NodePayload payload = NodePayload.open(l1, version)) {
            mine = payload.table();
        }
        List<PayloadTable> tables = List.of(mine, new PayloadTable(List.of(
                new PayloadFile(2, FileKind.MANIFEST, 300, 0), new PayloadFile(2, FileKind.DATA, 9000, 0))));
        XorSetLayout layout = ParityManifest.layoutOf(tables);
        byte[] parity = new byte[(int) scheme.paritySize(layout, 0)];
        CRC32C crc = new CRC32C();
        crc.update(parity);
        Files.write(ParityFiles.parity(l1, version), parity);
        Files.write(ParityFiles.manifest(l1, version), new ParityManifest(scheme, "heat", version, 0, 0,
                List.of("10.0.0.1:7400", "10.0.0.2:7400"), tables, layout.chunkSize(), (int) crc.getValue())
                .encode());
    }

    @Test
    void verifyChecksThisNodesParityAndListItsManifest() throws IOException {
        writeParity(3);
        Run clean = lazarus("ckpt", "verify", "--level", "l1");
        assertEquals(0, clean.status(), clean.out());
        assertTrue(clean.out().lines().anyMatch(
                l -> l.matches("L1 +heat +3 verified +2/2 incr +all +\\S+ \\S+ +parity 0/2 +")), clean.out());
        assertTrue(clean.out().lines().anyMatch(l -> l.matches("L1 +heat +2 verified .* - +")), clean.out());

        Path parity = ParityFiles.parity(l1, 3);
        byte[] bytes = Files.readAllBytes(parity);
        bytes[7] ^= 1;
        Files.write(parity, bytes);
        assertTrue(lazarus("ckpt", "list").out().contains(" parity 0/2 "), "list reads manifests only");
        Run damaged = lazarus("ckpt", "verify", "--level", "l1");
        assertEquals(1, damaged.status(), "a damaged parity fails verify: " + damaged.out());
        assertTrue(damaged.out().contains(" verified ") && damaged.out().contains(" corrupt: " + parity
                + ": checksum mismatch"), damaged.out());
        assertEquals("", damaged.err());

        Files.write(parity, Arrays.copyOf(bytes, 10));
        Files.copy(ParityFiles.manifest(l1, 3), ParityFiles.manifest(l1, 2));
        Run listed = lazarus("ckpt", "list", "--level", "l1");
        assertEquals(0, listed.status(), listed.err());
        assertTrue(listed.out().contains(" corrupt: " + parity + ": size=10 but the manifest says "), listed.out());
        assertTrue(listed.out().contains(" corrupt: " + ParityFiles.manifest(l1, 2)
                + ": names job=heat version=3, expected job=heat version=2"), listed.out());
    }

    /** Under PARTNER, member 0's "parity" is member 1's whole payload (9300 bytes), shown as partner m/n. */
    @Test
    void aPartnerCopyIsListedWithItsScheme() throws IOException {
        writeParity(3, L2Scheme.PARTNER);
        assertEquals(9300, Files.size(ParityFiles.parity(l1, 3)));
        Run verified = lazarus("ckpt", "verify", "--level", "l1");
        assertEquals(0, verified.status(), verified.out());
        assertTrue(verified.out().contains(" partner 0/2 "), verified.out());
        Run json = lazarus("ckpt", "list", "--level", "l1", "--json");
        assertTrue(json.out().contains("\"l2\" : {\n      \"state\" : \"parity\",\n      \"scheme\" : \"partner\",\n"
                + "      \"set\" : 0,\n      \"member\" : 0,\n      \"set_size\" : 2,"), json.out());
    }

    @Test
    void exportWritesHdf5AndRmDeletes() throws IOException {
        Path out = dir.resolve("v3.h5");
        Run export = lazarus("ckpt", "export", "--job", "heat", "--version", "3", "-o", out.toString(), "--json");
        assertEquals(0, export.status(), export.err());
        assertTrue(export.out().contains("\"level\":\"L1\",\"job\":\"heat\",\"version\":3,\"world_size\":2,"
                + "\"ranks\":2,\"datasets\":2"), export.out());
        assertTrue(Files.size(out) > 2 * 2048 * 8);
        Run again = lazarus("ckpt", "export", "--job", "heat", "--version", "3", "-o", out.toString());
        assertEquals(2, again.status());
        assertEquals("lazarus: --out " + out + ": exists (give --overwrite to replace it)\n", again.err());

        Run rm = lazarus("ckpt", "rm", "--job", "heat", "--version", "2");
        assertEquals(0, rm.status(), rm.err());
        assertEquals("removed L1 version 2\nremoved L3 version 2\n", rm.out());
        assertFalse(Files.exists(pfs.versionDirectory(2)));
        assertFalse(Files.exists(l1.versionDirectory(2)));
        Run none = lazarus("ckpt", "rm", "--job", "heat", "--version", "2");
        assertEquals(2, none.status());
        assertEquals("lazarus: nothing to delete: job heat has no version 2 on the levels\n", none.err());

        // A rank's spare data file (a pruned version's, kept for its next one) goes with the job; other files stay.
        Files.write(l1.spareDataFile(1), new byte[4096]);
        Run all = lazarus("ckpt", "rm", "--job", "heat", "--all");
        assertEquals(0, all.status(), all.err());
        assertFalse(Files.exists(l1.spareDataFile(1)));
        assertFalse(Files.exists(dir.resolve("l1").resolve("heat")), "the job's L1 directory is gone");
    }

    @Test
    void badInputIsAOneLineError() {
        Run level = lazarus("ckpt", "list", "--level", "l7");
        assertEquals(2, level.status());
        assertEquals("lazarus: --level l7 must be l1, pfs or all\n", level.err());
        Run job = lazarus("ckpt", "list", "--job", "../etc");
        assertEquals("lazarus: job id '../etc' must be 1 to 64 of [A-Za-z0-9_.-], not . or ..\n", job.err());
        Run missing = lazarus("ckpt", "export", "--job", "heat", "--version", "9", "-o", "x.h5");
        assertEquals("lazarus: no level holds a complete version 9 of job heat (see 'lazarus ckpt list --job heat')\n",
                missing.err());
        Run both = lazarus("ckpt", "rm", "--job", "heat", "--version", "1", "--all");
        assertEquals(2, both.status());
    }
}
