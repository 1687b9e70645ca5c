package dev.lazarus.daemon.l2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.daemon.DaemonSocket;
import dev.lazarus.daemon.L2Membership;
import dev.lazarus.daemon.NodeDaemon;
import dev.lazarus.daemon.NodeDaemonConfig;
import dev.lazarus.daemon.NodeDaemons;
import dev.lazarus.daemon.RebuildOutcome;
import dev.lazarus.daemon.l2.wire.Handshake;
import dev.lazarus.daemon.l2.wire.JobSecret;
import dev.lazarus.daemon.l2.wire.Link;
import dev.lazarus.daemon.process.DaemonWire;
import dev.lazarus.daemon.process.NodeDaemonMain;
import dev.lazarus.store.catalog.VersionStatus;
import dev.lazarus.store.drain.ChainComposer;
import dev.lazarus.store.format.ManifestFiles;
import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.store.level.l2.L2Scheme;
import dev.lazarus.store.level.l2.ParityFiles;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The node daemon as the ranks use it, through {@link NodeDaemons#open} and the {@link NodeDaemon} API only, in both
 * modes: embedded in the rank, and a daemon process per node reached through its Unix socket. Three daemons on
 * 127.0.0.1-3 join one XOR set, protect a version, report it in their holdings, and one rebuilds a lost node's files
 * byte for byte; a daemon drains its node's ranks to L3, and finishes a drain whose rank died.
 */
class NodeDaemonModesTest {
    private static final int NODES = 3;
    private static final long VERSION = 4;
    private L2Fixture cluster;
    private final List<NodeDaemon> daemons = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();
    @TempDir
    Path run;

    @BeforeEach
    void setUp() throws Exception {
        cluster = new L2Fixture(NODES);
        cluster.writeCheckpoints(VERSION);
    }

    @AfterEach
    void tearDown() throws Exception {
        daemons.forEach(NodeDaemon::close);
        for (Process process : processes) {
            process.getOutputStream().close(); // its end of standard input: the daemon stops
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "a daemon did not stop when its input closed");
            assertEquals(0, process.exitValue());
        }
        cluster.close();
    }

    private NodeDaemonConfig config(String mode, int node) {
        return new NodeDaemonConfig(mode, L2Fixture.JOB, DaemonSocket.of(run, "node" + node, L2Fixture.JOB),
                NODES * L2Fixture.RANKS_PER_NODE, cluster.roots.get(node),
                cluster.secret, NODES, L2Scheme.XOR, "127.0.0." + (node + 1), cluster.log::add);
    }

    /** Starts node {@code node}'s daemon process, as lazarus run does, and waits until it listens. */
    private void startProcess(int node) throws Exception {
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-Dlazarus.ckpt.node=node" + node,
                "-Dlazarus.run.dir=" + run, NodeDaemonMain.class.getName(), "--job", L2Fixture.JOB, "--secret",
                cluster.secret.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        processes.add(process);
        String line = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))
                .readLine();
        assertEquals("lazarus: node daemon node" + node + " of job " + L2Fixture.JOB + " " + NodeDaemonMain.READY
                + DaemonSocket.of(run, "node" + node, L2Fixture.JOB), line);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
                DaemonSocket.of(run, "node" + node, L2Fixture.JOB))));
    }

    private void startAndJoin(String mode) throws Exception {
        List<String> endpoints = new ArrayList<>();
        for (int node = 0; node < NODES; node++) {
            if (mode.equals(NodeDaemonConfig.PROCESS)) {
                startProcess(node);
            }
            NodeDaemon daemon = NodeDaemons.open(config(mode, node));
            daemons.add(daemon);
            endpoints.add(daemon.l2Endpoint());
            assertTrue(daemon.l2Endpoint().startsWith("127.0.0." + (node + 1) + ":"), daemon.l2Endpoint());
        }
        for (int node = 0; node < NODES; node++) {
            assertEquals(new L2Membership(L2Scheme.XOR, 0, node, NODES), daemons.get(node).joinL2(endpoints, node));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {NodeDaemonConfig.EMBEDDED, NodeDaemonConfig.PROCESS})
    void daemonsProtectAVersionReportItAndRebuildALostNode(String mode) throws Exception {
        startAndJoin(mode);
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Long>> submitted = new ArrayList<>();
            for (NodeDaemon daemon : daemons) {
                submitted.add(executor.submit(() -> daemon.submit(VERSION)));
            }
            for (Future<Long> bytes : submitted) {
                assertTrue(bytes.get() > 0, "parity bytes written");
            }
        }
        for (int node = 0; node < NODES; node++) {
            List<VersionStatus> held = daemons.get(node).holdings();
            assertEquals(1, held.size());
            assertEquals(VERSION, held.getFirst().version());
            assertTrue(held.getFirst().l2().complete(), String.valueOf(held.getFirst().l2().problem()));
            assertEquals(node, held.getFirst().l2().manifest().member());
        }

        TreeMap<String, byte[]> before = cluster.files(1, VERSION);
        cluster.l1(1).deleteVersion(VERSION);
        assertTrue(daemons.get(1).holdings().isEmpty(), "the lost node holds nothing");
        RebuildOutcome outcome = daemons.get(1).rebuild(VERSION);
        assertTrue(outcome.succeeded(), outcome.failure());
        assertEquals(new TreeSet<>(List.of(VERSION)), outcome.rebuilt());
        TreeMap<String, byte[]> after = cluster.files(1, VERSION);
        for (Map.Entry<String, byte[]> file : after.entrySet()) {
            assertArrayEquals(before.get(file.getKey()), file.getValue(), file.getKey());
        }
        assertFalse(after.containsKey(ParityFiles.manifest(cluster.l1(1), VERSION).getFileName().toString()),
                "a rebuild restores rank files only; the parity is owed to a later submit");
        assertEquals(before.size() - 2, after.size());

        daemons.get(0).release();
        assertFalse(Files.exists(ParityFiles.manifest(cluster.l1(0), VERSION)), "release removes the node's L2 files");
        VersionStatus kept = daemons.get(0).holdings().getFirst();
        assertEquals(List.of(0, 1), kept.ranksUsable(), "and keeps its rank files");
        assertFalse(kept.l2().complete());
    }

    @ParameterizedTest
    @ValueSource(strings = {NodeDaemonConfig.EMBEDDED, NodeDaemonConfig.PROCESS})
    void aRebuildWithoutParitySaysWhichVersionAndWhy(String mode) throws Exception {
        startAndJoin(mode);
        cluster.l1(1).deleteVersion(VERSION);
        RebuildOutcome outcome = daemons.get(1).rebuild(VERSION);
        assertFalse(outcome.succeeded());
        assertEquals(VERSION, outcome.failedVersion());
        assertTrue(outcome.rebuilt().isEmpty());
        assertTrue(outcome.failure().contains("unrecoverable at L2: job=" + L2Fixture.JOB + " version=" + VERSION + " set=0: 3 members lost"), outcome.failure());
        assertTrue(cluster.files(1, VERSION).isEmpty(), "nothing half-rebuilt is left");
    }

    /** A rank that dies while its daemon encodes does not stop the encode: the daemon finishes it. */
    @Test
    void anEncodeARankAskedForIsFinishedAfterTheRankIsGone() throws Exception {
        startAndJoin(NodeDaemonConfig.PROCESS);
        Path parity = ParityFiles.manifest(cluster.l1(0), VERSION);
        assertFalse(Files.exists(parity));
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(config(NodeDaemonConfig.PROCESS, 0).daemonSocket()));
            Handshake.asClient(new Link(channel, "test"), JobSecret.load(cluster.secret),
                    L2Fixture.JOB.getBytes(StandardCharsets.US_ASCII));
            channel.write(ByteBuffer.allocate(12).putInt(DaemonWire.SUBMIT).putLong(VERSION).flip());
        } // the "rank" is gone before any answer
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Files.exists(parity)) {
            assertTrue(System.nanoTime() < deadline, "the daemon did not finish the encode: " + cluster.log);
            Thread.sleep(20);
        }
    }

    /**
     * A node's daemon drains its ranks' files of a version to L3 as the ranks' own drain threads would: each rank's
     * chain composed into one full checkpoint, byte for byte what {@link ChainComposer} writes in the rank.
     */
    @ParameterizedTest
    @ValueSource(strings = {NodeDaemonConfig.EMBEDDED, NodeDaemonConfig.PROCESS})
    void aDaemonDrainsItsNodesRanksToL3AsTheRanksWould(String mode) throws Exception {
        startAndJoin(mode);
        long increment = VERSION + 2;
        for (int rank = 0; rank < L2Fixture.RANKS_PER_NODE; rank++) {
            L2Fixture.writeChain(cluster.l1(0), VERSION + 1, increment, rank, NODES * L2Fixture.RANKS_PER_NODE);
            assertFalse(ManifestFiles.read(cluster.l1(0).manifestFile(increment, rank)).full(), "an increment");
        }
        Path l3Root = cluster.base.resolve("pfs");
        Path reference = cluster.base.resolve("reference");
        long bytes = daemons.get(0).drainToL3(increment, List.of(0, 1), l3Root, false);
        CheckpointDirectory l3 = new CheckpointDirectory(l3Root, L2Fixture.JOB);
        CheckpointDirectory expected = new CheckpointDirectory(reference, L2Fixture.JOB);
        long expectedBytes = 0;
        for (int rank = 0; rank < L2Fixture.RANKS_PER_NODE; rank++) {
            expectedBytes += ChainComposer.composeFull(cluster.l1(0), expected, increment, rank);
            assertTrue(ManifestFiles.read(l3.manifestFile(increment, rank)).full(), "rank " + rank + " is full");
            assertArrayEquals(Files.readAllBytes(expected.dataFile(increment, rank)),
                    Files.readAllBytes(l3.dataFile(increment, rank)), "rank " + rank);
            assertArrayEquals(Files.readAllBytes(expected.manifestFile(increment, rank)),
                    Files.readAllBytes(l3.manifestFile(increment, rank)), "rank " + rank);
        }
        assertEquals(expectedBytes, bytes);
        assertFalse(Files.exists(l3.manifestFile(increment, 2)), "only the ranks named");

        // In the rank an IllegalArgumentException; from a daemon process its one line as an IOException.
        Class<? extends Exception> expectedType = mode.equals(NodeDaemonConfig.PROCESS) ? IOException.class
                : IllegalArgumentException.class;
        Exception outside = assertThrows(expectedType, () -> daemons.get(0).drainToL3(increment, List.of(0, 6),
                l3Root, false));
        assertTrue(outside.getMessage().contains("rank=6 outside the job's 0..5"), outside.getMessage());
        IOException missing = assertThrows(IOException.class,
                () -> daemons.get(1).drainToL3(increment, List.of(2), l3Root, false));
        assertTrue(missing.getMessage().startsWith("rank 2: "), missing.getMessage());
    }

    /** A bad L3 root from a rank gets the daemon's one line, and the connection goes on. */
    @Test
    void aDaemonProcessRefusesARelativeL3Root() throws Exception {
        startAndJoin(NodeDaemonConfig.PROCESS);
        IOException relative = assertThrows(IOException.class,
                () -> daemons.get(0).drainToL3(VERSION, List.of(0), Path.of("pfs/../x"), false));
        assertTrue(relative.getMessage().endsWith("is not an absolute, normalized path"), relative.getMessage());
        assertTrue(daemons.get(0).drainToL3(VERSION, List.of(0, 1), cluster.base.resolve("pfs"), false) > 0);
    }

    /**
     * A drain under way when its rank dies is finished by the daemon, and the next launch's leader is answered only
     * after it: it finds the version on L3 as soon as it has opened the daemon.
     */
    @Test
    void aDrainARankAskedForIsFinishedBeforeTheNextLaunchIsAnswered() throws Exception {
        startAndJoin(NodeDaemonConfig.PROCESS);
        long big = VERSION + 10;
        int world = NODES * L2Fixture.RANKS_PER_NODE;
        for (int rank = 0; rank < L2Fixture.RANKS_PER_NODE; rank++) {
            L2Fixture.writeRank(cluster.l1(0), big, rank, world, 96L << 20, rank);
        }
        Path l3Root = cluster.base.resolve("pfs");
        CheckpointDirectory l3 = new CheckpointDirectory(l3Root, L2Fixture.JOB);
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(config(NodeDaemonConfig.PROCESS, 0).daemonSocket()));
            Handshake.asClient(new Link(channel, "test"), JobSecret.load(cluster.secret),
                    L2Fixture.JOB.getBytes(StandardCharsets.US_ASCII));
            byte[] root = l3Root.toString().getBytes(StandardCharsets.UTF_8);
            channel.write(ByteBuffer.allocate(4 + 8 + 4 + root.length + 1 + 4 + 8).putInt(DaemonWire.DRAIN_L3)
                    .putLong(big).putInt(root.length).put(root).put((byte) 0).putInt(2).putInt(0).putInt(1).flip());
        } // the "rank" is gone before any answer
        assertFalse(Files.exists(l3.manifestFile(big, 1)), "the drain was under way when its rank went");
        NodeDaemon next = NodeDaemons.open(config(NodeDaemonConfig.PROCESS, 0));
        daemons.add(next);
        for (int rank = 0; rank < L2Fixture.RANKS_PER_NODE; rank++) {
            assertTrue(Files.exists(l3.manifestFile(big, rank)), "rank " + rank + "'s part is on L3: " + cluster.log);
            assertEquals(ManifestFiles.read(l3.manifestFile(big, rank)).dataLength(),
                    Files.size(l3.dataFile(big, rank)));
        }
    }

    @Test
    void aRankWithoutItsDaemonProcessIsToldHowToStartOne() {
        IOException none = assertThrows(IOException.class,
                () -> NodeDaemons.open(config(NodeDaemonConfig.PROCESS, 0)));
        assertTrue(none.getMessage().startsWith("no node daemon of job " + L2Fixture.JOB + " listens at "),
                none.getMessage());
    }

    @Test
    void misuseAndUnknownModesGetOneLine() throws Exception {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> NodeDaemons.open(config("threads", 0)));
        assertEquals("node daemon mode=threads is unknown; known: [embedded, process]", unknown.getMessage());
        NodeDaemon daemon = NodeDaemons.open(config(NodeDaemonConfig.EMBEDDED, 0));
        daemons.add(daemon);
        IllegalStateException early = assertThrows(IllegalStateException.class, () -> daemon.submit(VERSION));
        assertEquals("node daemon of job=" + L2Fixture.JOB + " has no node list: joinL2 first", early.getMessage());
    }
}
