package dev.lazarus.daemon.l2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * L2Main as real processes: four {@code serve} daemons on 127.0.0.1-4, {@code encode} on every node at once, then a
 * {@code rebuild} of a wiped node, and a {@code rebuild} that must fall back to L3 (exit status 3, one line).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class L2MainProcessTest {
    private L2Fixture cluster;
    private final List<Process> daemons = new ArrayList<>();

    @BeforeEach
    void setUp() throws IOException {
        cluster = new L2Fixture(4);
        cluster.writeCheckpoints(7);
        for (int m = 0; m < 4; m++) {
            Process daemon = java(List.of("serve", "--bind", "127.0.0." + (m + 1) + ":0")
                    , m).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            daemons.add(daemon);
            String line = new BufferedReader(new InputStreamReader(daemon.getInputStream(),
                    StandardCharsets.US_ASCII)).readLine();
            assertTrue(line != null && line.startsWith("l2: serving job=job-l2 l1="), String.valueOf(line));
            cluster.members.add(line.substring(line.indexOf("address=") + "address=".length()));
        }
    }

    @AfterEach
    void tearDown() throws Exception {
        for (Process daemon : daemons) {
            daemon.destroy();
            assertTrue(daemon.waitFor(10, TimeUnit.SECONDS), "daemon stops on SIGTERM");
        }
        cluster.close();
    }

    private ProcessBuilder java(List<String> command, int node) {
        List<String> line = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), L2Main.class.getName()));
        line.addAll(command);
        line.addAll(List.of("--l1", cluster.roots.get(node).toString(), "--job", L2Fixture.JOB, "--secret",
                cluster.secret.toString()));
        if (!command.getFirst().equals("serve")) {
            line.addAll(List.of("--members", String.join(",", cluster.members), "--self", Integer.toString(node)));
        }
        return new ProcessBuilder(line);
    }

    private record Outcome(int status, String out, String err) {
    }

    private Outcome run(int node, String... command) throws Exception {
        Process process = java(List.of(command), node).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.US_ASCII);
        return new Outcome(process.waitFor(), out, err);
    }

    @Test
    void encodeEverywhereThenRebuildAWipedNode() throws Exception {
        List<Process> encoders = new ArrayList<>();
        for (int m = 0; m < 4; m++) {
            encoders.add(java(List.of("encode", "--version", "7"), m).redirectErrorStream(true).start());
        }
        for (int m = 0; m < 4; m++) {
            String output = new String(encoders.get(m).getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertEquals(0, encoders.get(m).waitFor(), output);
            assertTrue(output.startsWith("l2: encoded version=7 set=0 member=" + m + " of 4 payloadBytes="), output);
        }
        TreeMap<String, byte[]> before = cluster.files(2, 7);
        cluster.l1(2).deleteVersion(7);

        Outcome rebuilt = run(2, "rebuild", "--version", "7");

        assertEquals(0, rebuilt.status(), rebuilt.err());
        assertTrue(rebuilt.out().startsWith("l2: rebuilt version=7 set=0 member=2 of 4 ranks=[4, 5]"), rebuilt.out());
        TreeMap<String, byte[]> after = cluster.files(2, 7);
        assertEquals(before.keySet(), after.keySet());
        for (Map.Entry<String, byte[]> file : before.entrySet()) {
            assertArrayEquals(file.getValue(), after.get(file.getKey()), file.getKey());
        }

        cluster.l1(0).deleteVersion(7);
        cluster.l1(2).deleteVersion(7);
        Outcome lost = run(2, "rebuild", "--version", "7");
        assertEquals(L2Main.UNRECOVERABLE, lost.status(), lost.err());
        assertEquals("", lost.out());
        assertTrue(lost.err().startsWith("l2: unrecoverable at L2: job=job-l2 version=7 set=0: 2 members lost: [0 ("
                + cluster.members.getFirst() + ": no parity manifest of version=7 on this node), 2 (this node)]"),
                lost.err());
        assertEquals(1, lost.err().lines().count(), lost.err());
    }

    @Test
    void badArgumentsAreOneLineAndStatusTwo() throws Exception {
        Outcome wildcard = run(0, "serve", "--bind", "0.0.0.0:0");
        assertEquals(L2Main.USAGE, wildcard.status());
        assertEquals("l2: bind address 0.0.0.0:0 is a wildcard: give the interface's address, or --allow-wildcard\n",
                wildcard.err());
        Outcome noVersion = run(0, "encode");
        assertEquals(L2Main.USAGE, noVersion.status());
        assertEquals("l2: --version V is required (0 or more)\n", noVersion.err());
    }
}
