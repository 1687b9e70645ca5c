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
import dev.lazarus.store.files.SecureFiles;
import dev.lazarus.store.incremental.IncrementalCheckpointer;
import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.store.level.l2.ParityFiles;

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

/**
 * {@code ckpt rebuild}, and the L2 column of {@code ckpt list} and {@code verify}, against three real L2 servers on
 * loopback, one rank per node.
 */
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
                secret.toString()));
        args.addAll(List.of(extra));
        return lazarus(node, out, err, args);
    }

    /** Runs {@code args} with node {@code node}'s L1 root. */
    private int lazarus(int node, ByteArrayOutputStream out, ByteArrayOutputStream err, List<String> args) {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of("--l1", dir.resolve("node" + node).toString()));
        return LazarusCli.execute(all.toArray(String[]::new), new InstallLayout(dir), dir, Map.of(),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    /** @return what {@code ckpt list} prints for node {@code node}'s L1, which it must print without an error */
    private String list(int node, String... options) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> args = new ArrayList<>(List.of("ckpt", "list", "--level", "l1"));
        args.addAll(List.of(options));
        assertEquals(0, lazarus(node, out, err, args), err.toString());
        assertEquals("", err.toString(), "no stack trace, no error");
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void listShowsEachNodesParityAndItsDamage() throws IOException {
        for (int node = 0; node < NODES; node++) {
            String row = list(node).lines().skip(1).findFirst().orElseThrow();
            assertTrue(row.matches("L1 +job +1 incomplete +1/3 full +all +\\S+ \\S+ +parity " + node + "/3 +ranks .*"),
                    row);
        }
        assertTrue(list(2, "--json").contains("\"l2\" : {\n      \"state\" : \"parity\",\n      \"scheme\" : \"xor\",\n"
                + "      \"set\" : 0,\n"
                + "      \"member\" : 2,\n      \"set_size\" : 3,\n      \"members\" : [ \""
                + String.join("\", \"", members) + "\" ]"), () -> list(2, "--json"));

        Path manifest = ParityFiles.manifest(l1(1), 1);
        byte[] bytes = Files.readAllBytes(manifest);
        bytes[bytes.length / 2] ^= 1;
        Files.write(manifest, bytes);
        assertTrue(list(1).contains(" corrupt: " + manifest + ": checksum mismatch  ranks "), list(1));
        assertTrue(list(1, "--json").contains("\"state\" : \"corrupt\",\n      \"reason\" : \"" + manifest
                + ": checksum mismatch\""), () -> list(1, "--json"));

        Files.delete(manifest);
        assertTrue(list(1).contains(" -  "), "parity without its manifest is an unfinished encode: " + list(1));
        assertTrue(list(1, "--json").contains("\"l2\" : {\n      \"state\" : \"none\"\n    }"),
                () -> list(1, "--json"));
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
