package dev.lazarus.daemon.l2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.store.catalog.Catalog;
import dev.lazarus.store.catalog.VersionStatus;
import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.store.level.l2.NodePayload;
import dev.lazarus.store.level.l2.ParityFiles;
import dev.lazarus.store.level.l2.ParityManifest;
import dev.lazarus.store.level.xor.PayloadSource;
import dev.lazarus.store.level.xor.XorCodec;
import dev.lazarus.store.level.xor.XorSetLayout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
 * Four nodes on 127.0.0.1-4, two ranks each with real checkpoints of unequal sizes: every node encodes, one node loses
 * its version directory and rebuilds it from the other three over TCP.
 */
class L2RoundTripTest {
    private static final long VERSION = 1;
    private static final int LOST = 1;

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

    private void encodeAll() throws Exception {
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<EncodeResult>> results = new ArrayList<>();
            for (int m = 0; m < cluster.nodes; m++) {
                L2Context context = cluster.context(m, true).conclude();
                results.add(executor.submit(() -> new L2Encoder(context).encode(VERSION)));
            }
            for (int m = 0; m < cluster.nodes; m++) {
                EncodeResult result = results.get(m).get();
                assertTrue(result.protectedAtL2());
                assertEquals(m, result.set().member());
                assertTrue(result.describe().startsWith("l2: encoded version=1 set=0 member=" + m + " of 4"),
                        result.describe());
            }
        }
    }

    /** Two workers, so failures are seen through the parallel path. */
    private RebuildResult rebuild(int node) throws IOException {
        return rebuild(node, 2);
    }

    private RebuildResult rebuild(int node, int workers) throws IOException {
        return new L2Rebuilder(cluster.context(node, true).rebuildWorkers(workers).conclude()).rebuild(VERSION);
    }

    /** Three workers split every chunk in three, with shares that end inside rank files. */
    @ParameterizedTest(name = "{0} rebuild worker(s)")
    @ValueSource(ints = {1, 3})
    void aLostNodeIsRebuiltByteForByteWithItsParity(int workers) throws Exception {
        encodeAll();
        assertParityMatchesLocalCodec();
        TreeMap<String, byte[]> before = cluster.files(LOST, VERSION);
        assertEquals(List.of("l2-parity.manifest", "l2-parity.xor", "rank-2.data", "rank-2.manifest", "rank-3.data",
                "rank-3.manifest"), List.copyOf(before.keySet()));

        cluster.l1(LOST).deleteVersion(VERSION);
        RebuildResult result = rebuild(LOST, workers);

        assertEquals(List.of(2, 3), result.ranks());
        TreeMap<String, byte[]> after = cluster.files(LOST, VERSION);
        assertEquals(before.keySet(), after.keySet());
        for (Map.Entry<String, byte[]> file : before.entrySet()) {
            assertArrayEquals(file.getValue(), after.get(file.getKey()), file.getKey());
        }
        VersionStatus node = new Catalog(cluster.l1(LOST)).status(VERSION, true);
        assertEquals(List.of(2, 3), node.ranksUsable());
        assertTrue(mergedCatalog().complete(), mergedCatalog().problems().toString());
        // The rebuilt node serves again: a second loss elsewhere is recoverable.
        cluster.l1(3).deleteVersion(VERSION);
        assertEquals(List.of(6, 7), rebuild(3, workers).ranks());
        assertTrue(mergedCatalog().complete());
    }

    /**
     * A restart's rebuild: the rank files come back alone, and the parity an ordinary encode then writes is the one
     * the node had. Without that parity, a second loss in the set is unrecoverable at L2.
     */
    @Test
    void rankFilesAloneAreRebuiltAndTheParityFollowsByAnEncode() throws Exception {
        encodeAll();
        TreeMap<String, byte[]> before = cluster.files(LOST, VERSION);

        cluster.l1(LOST).deleteVersion(VERSION);
        RebuildResult result = new L2Rebuilder(cluster.context(LOST, true).rebuildWorkers(2).conclude())
                .rebuildData(VERSION);

        assertEquals(List.of(2, 3), result.ranks());
        assertEquals(0, result.parityBytes());
        TreeMap<String, byte[]> after = cluster.files(LOST, VERSION);
        assertEquals(List.of("rank-2.data", "rank-2.manifest", "rank-3.data", "rank-3.manifest"),
                List.copyOf(after.keySet()));
        for (Map.Entry<String, byte[]> file : after.entrySet()) {
            assertArrayEquals(before.get(file.getKey()), file.getValue(), file.getKey());
        }
        assertEquals(List.of(2, 3), new Catalog(cluster.l1(LOST)).status(VERSION, true).ranksUsable());
        // Node 3's chunk 1 is folded into node 1's parity, which is not there yet.
        TreeMap<String, byte[]> third = cluster.files(3, VERSION);
        cluster.l1(3).deleteVersion(VERSION);
        UnrecoverableAtL2Exception e = assertThrows(UnrecoverableAtL2Exception.class, () -> rebuild(3));
        assertTrue(e.getMessage().contains("2 members lost"), e.getMessage());
        cluster.l1(3).createVersion(VERSION);
        for (Map.Entry<String, byte[]> file : third.entrySet()) {
            Files.write(cluster.l1(3).versionDirectory(VERSION).resolve(file.getKey()), file.getValue());
        }

        new L2Encoder(cluster.context(LOST, true).conclude()).encode(VERSION);
        TreeMap<String, byte[]> encoded = cluster.files(LOST, VERSION);
        assertEquals(before.keySet(), encoded.keySet());
        for (Map.Entry<String, byte[]> file : before.entrySet()) {
            assertArrayEquals(file.getValue(), encoded.get(file.getKey()), file.getKey());
        }
        cluster.l1(3).deleteVersion(VERSION);
        assertEquals(List.of(6, 7), rebuild(3).ranks());
    }

    /** Each node's parity equals the store's codec run locally over all four payloads. */
    private void assertParityMatchesLocalCodec() throws IOException {
        List<NodePayload> payloads = new ArrayList<>();
        try {
            PayloadSource[] sources = new PayloadSource[cluster.nodes];
            long[] sizes = new long[cluster.nodes];
            for (int m = 0; m < cluster.nodes; m++) {
                payloads.add(NodePayload.open(cluster.l1(m), VERSION));
                sources[m] = payloads.get(m).source();
                sizes[m] = sources[m].size();
            }
            XorSetLayout layout = XorSetLayout.of(sizes);
            for (int m = 0; m < cluster.nodes; m++) {
                ByteArrayOutputStream expected = new ByteArrayOutputStream();
                new XorCodec(64 << 10).encodeParity(layout, m, sources, Channels.newChannel(expected));
                assertArrayEquals(expected.toByteArray(), Files.readAllBytes(ParityFiles.parity(cluster.l1(m),
                        VERSION)), "parity of node " + m);
                ParityManifest manifest = ParityManifest.read(ParityFiles.manifest(cluster.l1(m), VERSION));
                assertEquals(layout, manifest.layout());
                assertEquals(m, manifest.member());
                assertEquals(cluster.members, manifest.addresses());
            }
        } finally {
            payloads.forEach(NodePayload::close);
        }
    }

    /** @return the catalog status of the version over every node's rank files, linked into one directory */
    private VersionStatus mergedCatalog() throws IOException {
        Path root = cluster.base.resolve("merged");
        CheckpointDirectory merged = new CheckpointDirectory(root, L2Fixture.JOB);
        merged.deleteVersion(VERSION);
        merged.createVersion(VERSION);
        for (int m = 0; m < cluster.nodes; m++) {
            for (int rank : cluster.l1(m).ranksWithManifest(VERSION)) {
                Files.createLink(merged.dataFile(VERSION, rank), cluster.l1(m).dataFile(VERSION, rank));
                Files.createLink(merged.manifestFile(VERSION, rank), cluster.l1(m).manifestFile(VERSION, rank));
            }
        }
        return new Catalog(merged).status(VERSION, true);
    }

    @Test
    void twoLostNodesOfOneSetAreUnrecoverableAtL2() throws Exception {
        encodeAll();
        cluster.l1(LOST).deleteVersion(VERSION);
        cluster.l1(2).deleteVersion(VERSION);

        UnrecoverableAtL2Exception e = assertThrows(UnrecoverableAtL2Exception.class, () -> rebuild(LOST));

        assertTrue(e.getMessage().startsWith("unrecoverable at L2: job=job-l2 version=1 set=0: 2 members lost: "
                + "[1 (this node), 2 (" + cluster.members.get(2) + ": no parity manifest of version=1 on this node)]"),
                e.getMessage());
        assertFalse(Files.exists(cluster.l1(LOST).versionDirectory(VERSION)));
    }

    @Test
    void anUnreachableSurvivorCountsAsLost() throws Exception {
        encodeAll();
        cluster.l1(LOST).deleteVersion(VERSION);
        cluster.servers.get(3).close();

        UnrecoverableAtL2Exception e = assertThrows(UnrecoverableAtL2Exception.class, () -> rebuild(LOST));

        assertTrue(e.getMessage().contains("2 members lost: [1 (this node), 3 (" + cluster.members.get(3)
                + ": cannot connect: peer=" + cluster.members.get(3) + " reason=Connection refused)]"), e.getMessage());
    }

    @Test
    void damagedSurvivorDataFailsTheChecksumAndNothingIsPublished() throws Exception {
        encodeAll();
        cluster.l1(LOST).deleteVersion(VERSION);
        // A byte of node 2's chunk 0 goes into node 0's parity (holder 0), which rebuilds node 1's chunk 0: the
        // damage lands in node 1's first files.
        Path damaged = cluster.l1(2).dataFile(VERSION, 4);
        long inPayload = Files.size(cluster.l1(2).manifestFile(VERSION, 4)) + 100;
        XorSetLayout layout = ParityManifest.read(ParityFiles.manifest(cluster.l1(0), VERSION)).layout();
        assertEquals(0, layout.parityHolder(2, (int) (inPayload / layout.chunkSize())));
        assertTrue(inPayload < layout.payloadSize(LOST));
        flipByte(damaged, 100);

        UnrecoverableAtL2Exception e = assertThrows(UnrecoverableAtL2Exception.class, () -> rebuild(LOST));

        assertTrue(e.getMessage().startsWith("unrecoverable at L2: job=job-l2 version=1 set=0: rebuilt files fail"
                + " their CRC32C, a survivor's data or parity is damaged; nothing was published: [rank-2."),
                e.getMessage());
        assertTrue(e.getMessage().matches(".*rank-2\\.\\w+ crc32c=[0-9a-f]+ expected=[0-9a-f]+.*"), e.getMessage());
        assertFalse(Files.exists(cluster.l1(LOST).versionDirectory(VERSION)), "no rank file, no partial file");
    }

    private static void flipByte(Path file, long position) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, position);
            one.put(0, (byte) (one.get(0) ^ 0x40)).rewind();
            channel.write(one, position);
        }
    }

    @Test
    void rebuildRefusesToOverwriteAnExistingCheckpoint() throws Exception {
        encodeAll();
        IOException e = assertThrows(IOException.class, () -> rebuild(LOST));
        assertTrue(e.getMessage().startsWith("refusing to rebuild over an existing checkpoint: version=1 ranks=[2, 3]"),
                e.getMessage());
    }

    @Test
    void encodingAVersionANodeLacksNamesTheNodeAndVersion() throws Exception {
        cluster.l1(2).deleteVersion(VERSION);
        IOException e = assertThrows(IOException.class,
                () -> new L2Encoder(cluster.context(0, true).conclude()).encode(VERSION));
        assertEquals("cannot encode: job=job-l2 version=1 set=0 member=0 of 4 " + cluster.members + ": member 2 ("
                + cluster.members.get(2) + "): no checkpoint of version=1 on this node", e.getMessage());
    }

    @Test
    void aSetOfOneNodeHasNoRedundancy() throws Exception {
        List<String> five = new ArrayList<>(cluster.members);
        five.add("127.0.0.5:1");
        L2Context lonely = cluster.context(0, false).members(five).self(4).setSize(4).conclude();

        EncodeResult result = new L2Encoder(lonely).encode(VERSION);

        assertFalse(result.protectedAtL2());
        assertEquals("l2: no redundancy: version=1 set=1 member=0 of 1 [127.0.0.5:1] is a set of one node, so this"
                + " version has no L2 protection (L1 and L3 only)", result.describe());
        UnrecoverableAtL2Exception e = assertThrows(UnrecoverableAtL2Exception.class,
                () -> new L2Rebuilder(lonely).rebuild(VERSION));
        assertEquals("unrecoverable at L2: job=job-l2 version=1 set=1: the set has one member, so no parity of it"
                + " exists", e.getMessage());
    }
}
