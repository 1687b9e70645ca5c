package dev.lazarus.daemon.l2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.store.level.l2.L2Scheme;
import dev.lazarus.store.level.l2.NodePayload;
import dev.lazarus.store.level.l2.ParityFiles;
import dev.lazarus.store.level.l2.ParityManifest;
import dev.lazarus.store.level.xor.ColumnRange;
import dev.lazarus.store.level.xor.PayloadSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The PARTNER scheme on four loopback nodes with real checkpoints: every node stores a copy of its left neighbour's
 * payload (node m holds node m-1's, around the ring), so any losses that spare each lost node's right neighbour are
 * rebuilt, while XOR would survive only one.
 */
class PartnerRoundTripTest {
    private static final long VERSION = 3;

    private L2Fixture cluster;

    @BeforeEach
    void setUp() throws IOException {
        cluster = new L2Fixture(4);
        cluster.writeCheckpoints(VERSION);
        cluster.startServers();
    }

    @AfterEach
    void tearDown() throws IOException {
        cluster.close();
    }

    private L2Context partner(int node, int workers) {
        return cluster.context(node, true).scheme(L2Scheme.PARTNER).rebuildWorkers(workers).conclude();
    }

    private void encodeAll() throws Exception {
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<EncodeResult>> results = new ArrayList<>();
            for (int m = 0; m < cluster.nodes; m++) {
                L2Encoder encoder = new L2Encoder(partner(m, 1));
                results.add(executor.submit(() -> encoder.encode(VERSION)));
            }
            for (int m = 0; m < cluster.nodes; m++) {
                EncodeResult result = results.get(m).get();
                assertEquals(payload(L2Scheme.copiedFrom(m, cluster.nodes)).length, result.parityBytes());
            }
        }
    }

    /** @return node {@code m}'s payload: its rank files, concatenated as the wire sends them */
    private byte[] payload(int m) throws IOException {
        try (NodePayload payload = NodePayload.open(cluster.l1(m), VERSION)) {
            PayloadSource source = payload.source();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            new PartnerCopy().copy(source, new ColumnRange(0, source.size()), (at, slice) -> {
                byte[] bytes = new byte[slice.remaining()];
                slice.get(bytes);
                out.write(bytes);
            });
            return out.toByteArray();
        }
    }

    @ParameterizedTest(name = "{0} rebuild worker(s)")
    @ValueSource(ints = {1, 3})
    void eachNodeHoldsItsLeftNeighboursPayloadAndALostNodeComesBackWithItsCopy(int workers) throws Exception {
        encodeAll();
        for (int m = 0; m < cluster.nodes; m++) {
            int left = L2Scheme.copiedFrom(m, cluster.nodes);
            assertArrayEquals(payload(left), Files.readAllBytes(ParityFiles.parity(cluster.l1(m), VERSION)),
                    "node " + m + " holds node " + left + "'s payload");
            ParityManifest manifest = ParityManifest.read(ParityFiles.manifest(cluster.l1(m), VERSION));
            assertEquals(L2Scheme.PARTNER, manifest.scheme());
        }
        TreeMap<String, byte[]> before = cluster.files(1, VERSION);

        cluster.l1(1).deleteVersion(VERSION);
        RebuildResult result = new L2Rebuilder(partner(1, workers)).rebuild(VERSION);

        assertEquals(List.of(2, 3), result.ranks());
        assertSameFiles(before, cluster.files(1, VERSION));
    }

    @Test
    void twoNonAdjacentLostNodesAreBothRebuiltAndTheirCopiesFollowByAnEncode() throws Exception {
        encodeAll();
        TreeMap<String, byte[]> zero = cluster.files(0, VERSION);
        TreeMap<String, byte[]> two = cluster.files(2, VERSION);
        cluster.l1(0).deleteVersion(VERSION);
        cluster.l1(2).deleteVersion(VERSION);

        // Node 0's copy is on node 1, node 2's on node 3: what a restart does, rank files first.
        assertEquals(List.of(0, 1), new L2Rebuilder(partner(0, 2)).rebuildData(VERSION).ranks());
        assertEquals(List.of(4, 5), new L2Rebuilder(partner(2, 2)).rebuildData(VERSION).ranks());
        for (int node : List.of(0, 2)) {
            assertFalse(Files.exists(ParityFiles.parity(cluster.l1(node), VERSION)), "no copy yet on " + node);
            new L2Encoder(partner(node, 1)).encode(VERSION);
        }

        assertSameFiles(zero, cluster.files(0, VERSION));
        assertSameFiles(two, cluster.files(2, VERSION));
    }

    @Test
    void aNodeLostWithItsRightNeighbourIsUnrecoverableButTheNeighbourComesBack() throws Exception {
        encodeAll();
        cluster.l1(1).deleteVersion(VERSION);
        cluster.l1(2).deleteVersion(VERSION);

        UnrecoverableAtL2Exception e = assertThrows(UnrecoverableAtL2Exception.class,
                () -> new L2Rebuilder(partner(1, 2)).rebuildData(VERSION));
        assertTrue(e.getMessage().startsWith("unrecoverable at L2: job=job-l2 version=3 set=0: 2 members lost"
                + " (partner scheme: this node's copy is on member 2): [1 (this node), 2 (" + cluster.members.get(2)
                + ": no parity manifest of version=3 on this node)]"), e.getMessage());
        // Node 2's copy is on node 3, but its own copy of node 1's payload cannot be made again.
        assertThrows(UnrecoverableAtL2Exception.class, () -> new L2Rebuilder(partner(2, 2)).rebuild(VERSION));
        assertEquals(List.of(4, 5), new L2Rebuilder(partner(2, 2)).rebuildData(VERSION).ranks());
    }

    @Test
    void aDamagedCopyFailsTheChecksumAndNothingIsPublished() throws Exception {
        encodeAll();
        cluster.l1(1).deleteVersion(VERSION);
        Path copy = ParityFiles.parity(cluster.l1(2), VERSION);
        try (RandomAccessFile file = new RandomAccessFile(copy.toFile(), "rw")) {
            file.seek(file.length() / 2);
            int b = file.read();
            file.seek(file.length() / 2);
            file.write(b ^ 0x10);
        }

        UnrecoverableAtL2Exception e = assertThrows(UnrecoverableAtL2Exception.class,
                () -> new L2Rebuilder(partner(1, 2)).rebuildData(VERSION));

        assertTrue(e.getMessage().contains("rebuilt files fail their CRC32C"), e.getMessage());
        assertFalse(Files.exists(cluster.l1(1).versionDirectory(VERSION)), "nothing published");
    }

    private static void assertSameFiles(TreeMap<String, byte[]> expected, TreeMap<String, byte[]> actual) {
        assertEquals(expected.keySet(), actual.keySet());
        for (Map.Entry<String, byte[]> file : expected.entrySet()) {
            assertArrayEquals(file.getValue(), actual.get(file.getKey()), file.getKey());
        }
    }
}
