package dev.lazarus.npb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.checkpoint.CheckpointSettings;
import dev.lazarus.daemon.l2.wire.JobSecret;
import dev.lazarus.easycrash.EasyCrashSettings;
import dev.lazarus.easycrash.Recomputable;
import dev.lazarus.easycrash.RecomputingRun.Outcome;
import dev.lazarus.easycrash.RecomputingRun;
import dev.lazarus.mpi.testing.ThreadComm;
import dev.lazarus.npb.cg.CgKernel;
import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.store.level.l2.L2Scheme;
import dev.lazarus.store.level.l2.ParityFiles;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CG class S on three thread ranks, each on a node of its own (its own node name and L1 directory), so the three
 * nodes form one XOR set whose L2 services talk TCP on loopback. The run checkpoints every 4 iterations and crashes at
 * iteration 11; relaunches must come back from version 8: with one node's L1 lost or damaged, from L1 after that
 * node's files were rebuilt from the set (L2); with two nodes' L1 lost, from L3.
 */
class L2RestartTest {
    private static final String[] CLASS_S = {"--class", "S", "--quiet"};
    private static final String JOB = "cg-l2";
    private static final int NODES = 3;

    @TempDir
    Path dir;
    /** Settings a test adds to every rank's. */
    private final Properties extra = new Properties();

    private EasyCrashSettings nvm(int rank) {
        Properties p = new Properties();
        p.setProperty(EasyCrashSettings.NVM_DIR, dir.resolve("nvm" + rank).toString());
        p.setProperty(EasyCrashSettings.JOB_ID, JOB);
        p.setProperty(EasyCrashSettings.RESTART, "off");
        return new EasyCrashSettings(p, Map.of());
    }

    private CheckpointSettings levels(int rank, L2Scheme scheme) {
        Properties p = new Properties();
        p.setProperty(CheckpointSettings.L2_SCHEME, scheme.label());
        p.setProperty(CheckpointSettings.JOB_ID, JOB);
        p.setProperty(CheckpointSettings.NODE, "node" + rank);
        p.setProperty(CheckpointSettings.L1_DIR, l1Root(rank).toString());
        p.setProperty(CheckpointSettings.PFS_DIR, dir.resolve("pfs").toString());
        p.setProperty(CheckpointSettings.PFS_EVERY, "1");
        p.setProperty(CheckpointSettings.EVERY, "4");
        p.setProperty(CheckpointSettings.L2_SECRET, dir.resolve("secret").toString());
        p.setProperty(CheckpointSettings.L2_BIND, "127.0.0.1");
        p.putAll(extra);
        return new CheckpointSettings(p, Map.of()).conclude("npb.CG");
    }

    private Path l1Root(int node) {
        return dir.resolve("l1-node" + node);
    }

    private CheckpointDirectory l1(int node) {
        return new CheckpointDirectory(l1Root(node), JOB);
    }

    private List<Outcome> run(int crashAt, PrintStream log) throws Exception {
        return run(NODES, L2Scheme.XOR, crashAt, log);
    }

    private List<Outcome> run(int nodes, L2Scheme scheme, int crashAt, PrintStream log) throws Exception {
        return ThreadComm.run(nodes, comm -> {
            Recomputable app = new CgKernel().prepare(comm, CLASS_S);
            return RecomputingRun.run(comm, crashAt > 0 ? new CheckpointRestartTest.Crashing(app, crashAt) : app,
                    nvm(comm.rank()), levels(comm.rank(), scheme), null, log);
        });
    }

    @Test
    void lostOrDamagedNodeIsRebuiltFromItsXorSetAndTwoLostNodesFallBackToL3() throws Exception {
        JobSecret.create(dir.resolve("secret"));
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        PrintStream log = new PrintStream(text, true, StandardCharsets.UTF_8);
        assertThrows(Exception.class, () -> run(11, log));
        assertTrue(text.toString().contains("L2 on: node node0 is member 0 of XOR set 0 (3 nodes)"), text::toString);
        assertTrue(text.toString().contains("rank 0: page tracking: "), text::toString);
        for (int node = 0; node < NODES; node++) {
            assertEquals(List.of(4L, 8L), l1(node).versions());
            assertTrue(Files.exists(ParityFiles.manifest(l1(node), 8)), "node " + node + " has parity of 8");
        }

        // Node 1's RAM disk is gone: its files of version 8 come back from nodes 0 and 2 (CG changes most of its state
        // between checkpoints, so version 8 is full, not an increment of 4: it is the whole chain).
        byte[] lostData = Files.readAllBytes(l1(1).dataFile(8, 1));
        wipe(l1Root(1));
        text.reset();
        assertThrows(Exception.class, () -> run(11, log));
        assertTrue(text.toString().matches("(?s).*node node1 rebuilt versions \\[8] from its XOR set in"
                + " \\d+\\.\\d{3} s; its parity of them follows in the background.*"), text::toString);
        assertTrue(text.toString().contains("checkpoint restart: restored version 8 from L1 and L2, resuming at"
                + " iteration 9"), text::toString);
        // The restart waited for node 1's rank files only; its drain thread then encoded its parity of the chain.
        assertTrue(text.toString().contains("node node1 encoded its L2 parity of version 8 and its chain again after"
                + " the rebuild"), text::toString);
        assertTrue(Files.exists(ParityFiles.manifest(l1(1), 8)), "node 1 has its parity of 8");

        // One flipped byte in node 2's data file: detected by its checksum and rebuilt from the set, with node 1's
        // re-encoded parity (node 2's second chunk is folded into it).
        Path damaged = l1(2).dataFile(8, 2);
        byte[] bytes = Files.readAllBytes(damaged);
        bytes[bytes.length / 2] ^= 0x40;
        Files.write(damaged, bytes);
        text.reset();
        assertThrows(Exception.class, () -> run(11, log));
        assertTrue(text.toString().contains("checksum mismatch"), text::toString);
        assertTrue(text.toString().contains("restored version 8 from L1 and L2"), text::toString);
        assertFalse(java.util.Arrays.equals(bytes, Files.readAllBytes(damaged)), "the damaged file was replaced");
        assertTrue(lostData.length > 0);

        // Two nodes of the set lost: L2 cannot help, version 8 comes from L3, and the run finishes and verifies.
        wipe(l1Root(0));
        wipe(l1Root(2));
        text.reset();
        for (Outcome outcome : run(0, log)) {
            assertTrue(outcome.verdict().accepted(), outcome.verdict().reason());
            assertEquals(9, outcome.firstIteration());
        }
        assertTrue(text.toString().contains("L2 cannot rebuild version 8: XOR set 0 lost 2 nodes"), text::toString);
        assertTrue(text.toString().contains("restored version 8 from L1 and L3"), text::toString);
        for (int node = 0; node < NODES; node++) {
            assertEquals(List.of(), l1(node).versions(), "a finished run releases node " + node + "'s L1 and L2");
        }
    }

    /**
     * Parity of every second version only ({@code lazarus.ckpt.l2.every=2}), one version kept on L1 as a full copy
     * (no chain holds older ones), no L3: the newest version with every node's parity stays on L1 until a newer one
     * has it, so a node lost after an odd version is still rebuilt from L2, from that version.
     */
    @Test
    void theNewestVersionWithEveryNodesParityStaysOnL1UntilANewerOneHasIt() throws Exception {
        JobSecret.create(dir.resolve("secret"));
        extra.setProperty(CheckpointSettings.EVERY, "1");
        extra.setProperty(CheckpointSettings.KEEP, "1");
        extra.setProperty(CheckpointSettings.FULL_EVERY, "1");
        extra.setProperty(CheckpointSettings.L2_EVERY, "2");
        extra.setProperty(CheckpointSettings.PFS_DIR, "off");
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        PrintStream log = new PrintStream(text, true, StandardCharsets.UTF_8);
        assertThrows(Exception.class, () -> run(12, log));
        for (int node = 0; node < NODES; node++) {
            assertEquals(List.of(10L, 11L), l1(node).versions(), "node " + node + " keeps 11 and the protected 10");
            assertTrue(Files.exists(ParityFiles.manifest(l1(node), 10)), "node " + node + " has parity of 10");
            assertFalse(Files.exists(ParityFiles.manifest(l1(node), 11)), "no parity of odd versions");
        }
        wipe(l1Root(1));
        text.reset();
        for (Outcome outcome : run(0, log)) {
            assertTrue(outcome.verdict().accepted(), outcome.verdict().reason());
            assertEquals(11, outcome.firstIteration());
        }
        assertTrue(text.toString().contains("checkpoint restart: restored version 10 from L1 and L2, resuming at"
                + " iteration 11"), text::toString);
    }

    /**
     * PARTNER on four nodes (node m holds node m-1's files): two non-adjacent nodes lost are both rebuilt, which XOR
     * cannot do; a node lost with the neighbour holding its copy falls back to L3 while that neighbour is rebuilt.
     */
    @Test
    void partnerCopiesRebuildTwoNonAdjacentLostNodesAndANodeLostWithItsPartnerFallsBackToL3() throws Exception {
        JobSecret.create(dir.resolve("secret"));
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        PrintStream log = new PrintStream(text, true, StandardCharsets.UTF_8);
        assertThrows(Exception.class, () -> run(4, L2Scheme.PARTNER, 11, log));
        assertTrue(text.toString().contains("L2 on: node node0 is member 0 of partner set 0 (4 nodes)"),
                text::toString);
        for (int node = 0; node < 4; node++) {
            // Each node's copy of version 8 is its left neighbour's rank files, byte for byte.
            int left = (node + 3) % 4;
            assertEquals(Files.size(l1(left).manifestFile(8, left)) + Files.size(l1(left).dataFile(8, left)),
                    Files.size(ParityFiles.parity(l1(node), 8)), "node " + node + " holds node " + left + "'s copy");
        }

        wipe(l1Root(0));
        wipe(l1Root(2));
        text.reset();
        assertThrows(Exception.class, () -> run(4, L2Scheme.PARTNER, 11, log));
        for (int node : List.of(0, 2)) {
            assertTrue(text.toString().contains("node node" + node + " rebuilt versions [8] from its partner set"),
                    text::toString);
            assertTrue(text.toString().contains("node node" + node + " encoded its L2 parity of version 8"),
                    text::toString);
        }
        assertTrue(text.toString().contains("checkpoint restart: restored version 8 from L1 and L2, resuming at"
                + " iteration 9"), text::toString);

        wipe(l1Root(1));
        wipe(l1Root(2));
        text.reset();
        for (Outcome outcome : run(4, L2Scheme.PARTNER, 0, log)) {
            assertTrue(outcome.verdict().accepted(), outcome.verdict().reason());
            assertEquals(9, outcome.firstIteration());
        }
        assertTrue(text.toString().contains("L2 cannot rebuild version 8 of node node1: its partner node2, which"
                + " holds its copy, is lost too"), text::toString);
        assertTrue(text.toString().contains("node node2 rebuilt versions [8] from its partner set"), text::toString);
        assertTrue(text.toString().contains("restored version 8 from L1, L2 and L3"), text::toString);
    }

    private static void wipe(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
