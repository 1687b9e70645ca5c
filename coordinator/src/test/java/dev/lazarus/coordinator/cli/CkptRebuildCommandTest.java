package dev.lazarus.coordinator.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.coordinator.launch.InstallLayout;
import dev.lazarus.daemon.l2.Endpoints;
import dev.lazarus.daemon.l2.L2Context;
import dev.lazarus.daemon.l2.L2Encoder;
import dev.lazarus.daemon.l2.L2Server;
import dev.lazarus.store.ElementType;
import dev.lazarus.store.ProtectedRegion;
import dev.lazarus.store.dirty.AllPagesScanner;
import dev.lazarus.store.incremental.IncrementalCheckpointer;
import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.store.level.SecureFiles;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ckpt rebuild} against three real L2 servers on loopback, one rank per node. */
class CkptRebuildCommandTest {
    private static final int NODES = 3;
    @TempDir
    Path dir;
    private Path secret;
    private final List<L2Server> servers = new ArrayList<>();
    private final List<String> members = new ArrayList<>();

    private CheckpointDirectory l1(int node) {
        return new CheckpointDirectory(dir.resolve("node" + node), "job");
    }

    private L2Context context(int node) {
        return new L2Context().job("job").l1Root(dir.resolve("node" + node)).secretFile(secret).log(l -> { });
    }

    @BeforeEach
    void setUp() throws IOException {
        secret = dir.resolve("secret");
        byte[] key = new byte[32];
        new Random(5).nextBytes(key);
        try (FileChannel channel = SecureFiles.openForWrite(secret)) {
            channel.write(ByteBuffer.wrap(key));
        }
        for (int node = 0; node < NODES; node++) {
            double[] x = new double[3000 + 1000 * node];
            java.util.Arrays.setAll(x, i -> i * 0.5);
            try (var ckpt = new IncrementalCheckpointer(l1(node), node, NODES, 512, 1, new AllPagesScanner("t"))) {
                ckpt.protect(ProtectedRegion.of("x", ElementType.DOUBLE, MemorySegment.ofArray(x)));
                ckpt.checkpoint(1);
            }
            L2Server server = L2Server.start(context(node).bind("127.0.0." + (node + 1) + ":0").conclude());
            servers.add(server);
            members.add(Endpoints.format(server.address()));
        }
        for (int node = 0; node < NODES; node++) {
            new L2Encoder(context(node).members(members).self(node).setSize(NODES).conclude()).encode(1);
        }
    }

    @AfterEach
    void tearDown() {
        servers.forEach(L2Server::close);
    }

    private int rebuild(int node, ByteArrayOutputStream out, ByteArrayOutputStream err, String... extra) {
        List<String> args = new ArrayList<>(List.of("ckpt", "rebuild", "--job", "job", "--version", "1",
                "--members", String.join(",", members), "--self", Integer.toString(node), "--secret",
                secret.toString(), "--l1", dir.resolve("node" + node).toString()));
        args.addAll(List.of(extra));
        return LazarusCli.execute(args.toArray(String[]::new), new InstallLayout(dir), dir, Map.of(),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void aLostNodeIsRebuiltByteForByte() throws IOException {
        byte[] data = Files.readAllBytes(l1(1).dataFile(1, 1));
        byte[] manifest = Files.readAllBytes(l1(1).manifestFile(1, 1));
        l1(1).deleteVersion(1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, rebuild(1, out, err, "--json"), err.toString());
        assertTrue(out.toString().startsWith("{\"job\":\"job\",\"version\":1,\"set\":0,\"member\":1,\"ranks\":[1],"),
                out.toString());
        assertArrayEquals(data, Files.readAllBytes(l1(1).dataFile(1, 1)));
        assertArrayEquals(manifest, Files.readAllBytes(l1(1).manifestFile(1, 1)));
    }

    @Test
    void twoLostNodesAreUnrecoverableAtL2() throws IOException {
        l1(1).deleteVersion(1);
        l1(2).deleteVersion(1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(CkptRebuildCommand.UNRECOVERABLE, rebuild(1, out, err));
        assertTrue(err.toString().startsWith("lazarus: unrecoverable at L2"), err.toString());
        assertTrue(err.toString().strip().endsWith("; restart from L3"), err.toString());
    }
}
