package dev.lazarus.coordinator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.coordinator.launch.InstallLayout;
import dev.lazarus.daemon.l2.L2Main;
import dev.lazarus.daemon.l2.wire.JobSecret;
import dev.lazarus.store.ElementType;
import dev.lazarus.store.ProtectedRegion;
import dev.lazarus.store.Variable;
import dev.lazarus.store.dirty.AllPagesScanner;
import dev.lazarus.store.drain.ChainComposer;
import dev.lazarus.store.incremental.IncrementalCheckpointer;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input to every option of every command ({@code run}, {@code campaign}, {@code ckpt list|verify|rebuild|export|rm}
 * and the L2 command): each case must answer with exactly one line on standard error, nothing on standard output,
 * status 2, no Java exception name or stack frame, and leave the directory tree holding the level roots, the NVM
 * directory and the input files unchanged byte for byte.
 *
 * <p>{@code run} cases carry {@code --dry-run}: the input must be refused before any launch, and a case whose input
 * is wrongly accepted prints a plan (status 0) instead of starting a job. {@code {T}} in a case is the fixture root.
 */
class BadInputTest {
    private static final Path HOME = Path.of(System.getProperty("lazarus.home", "..")).toAbsolutePath();
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));
    private static final Pattern EXCEPTION_NAME = Pattern.compile("\\b(java|javax|sun|jdk|picocli|dev)\\.[\\w.$]+"
            + "(Exception|Error)\\b|\\b\\w+(Exception|Error):|\\n\\s+at [\\w.$]+\\(");
    private static final AtomicInteger CASES = new AtomicInteger();
    private static final AtomicInteger PASSED = new AtomicInteger();

    @TempDir
    static Path levels;
    @TempDir
    Path root;

    private record Output(int status, String out, String err) {
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> cases() {
        List<org.junit.jupiter.params.provider.Arguments> all = new ArrayList<>();
        all.addAll(BadInputCases.run());
        all.addAll(BadInputCases.campaign());
        all.addAll(BadInputCases.status());
        all.addAll(BadInputCases.ckpt());
        all.addAll(BadInputCases.l2());
        return all.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void isOneLineStatusTwoAndTouchesNothing(String name, String command, List<String> template) throws Exception {
        CASES.incrementAndGet();
        writeFixture();
        String[] args = template.stream().map(a -> a.replace("{T}", root.toString())).toArray(String[]::new);
        Map<String, String> before = tree(root);
        // Input wrongly accepted by `l2 serve` would serve until killed: a bound, not a hang.
        Output result = assertTimeoutPreemptively(Duration.ofSeconds(60),
                () -> command.equals("l2") ? l2(args) : lazarus(args));
        assertEquals(before, tree(root), "the directory tree changed");
        assertEquals(2, result.status(), () -> "status; stderr: " + result.err() + " stdout: " + result.out());
        assertEquals("", result.out(), "stdout");
        assertTrue(result.err().endsWith("\n") && result.err().indexOf('\n') == result.err().length() - 1,
                () -> "not exactly one line on stderr: " + result.err());
        assertFalse(EXCEPTION_NAME.matcher(result.err()).find(), () -> "exception name in: " + result.err());
        PASSED.incrementAndGet();
    }

    @AfterAll
    static void count() {
        System.out.println("bad-input cases: " + PASSED.get() + " passed of " + CASES.get());
    }

    private Output lazarus(String[] args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = LazarusCli.execute(args, new InstallLayout(HOME), JAVA_HOME, environment(),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Output(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private Output l2(String[] args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = L2Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Map.of());
        return new Output(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Every default the commands fall back to points into the fixture, so nothing outside it can be touched. */
    private Map<String, String> environment() {
        Map<String, String> env = new HashMap<>();
        env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("MPJ_HOME", System.getenv().getOrDefault("MPJ_HOME",
                Path.of(System.getProperty("user.home"), ".cache/lazarus/mpj").toString()));
        env.put("HOME", root.resolve("home").toString());
        env.put("LAZARUS_CKPT_DIR", root.resolve("levels/l1").toString());
        env.put("LAZARUS_CKPT_PFS_DIR", root.resolve("levels/pfs").toString());
        env.put("LAZARUS_NVM_DIR", root.resolve("levels/nvm").toString());
        env.put(JobSecrets.DIR_ENV, root.resolve("secrets").toString());
        return env;
    }

    /**
     * Job {@code heat}: versions 1 to 3 of two ranks on L1 and version 2 on L3, written once and copied into each
     * case's fixture.
     */
    @BeforeAll
    static void writeLevels() throws IOException {
        CheckpointDirectory l1 = new CheckpointDirectory(levels.resolve("l1"), "heat");
        CheckpointDirectory pfs = new CheckpointDirectory(levels.resolve("pfs"), "heat");
        for (int rank = 0; rank < 2; rank++) {
            double[] u = new double[2048];
            try (var ckpt = new IncrementalCheckpointer(l1, rank, 2, 512, 8, new AllPagesScanner("test"))) {
                ckpt.protect(new ProtectedRegion(new Variable("u", ElementType.DOUBLE, new long[] {32, 64}),
                        MemorySegment.ofArray(u)));
                for (int v = 1; v <= 3; v++) {
                    u[v * 10] = v + rank;
                    ckpt.checkpoint(v);
                }
            }
            ChainComposer.composeFull(l1, pfs, 2, rank);
        }
    }

    /**
     * The level roots under {@code levels/} (so that their parent is in the hashed tree too), an NVM directory with
     * a job directory, and the bad input files.
     */
    private void writeFixture() throws IOException {
        try (Stream<Path> paths = Files.walk(levels)) {
            for (Path from : paths.toList()) {
                Path to = root.resolve("levels").resolve(levels.relativize(from).toString());
                Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
        Files.createDirectories(root.resolve("levels/nvm/heat"));
        Files.createDirectories(root.resolve("DIR"));
        Files.writeString(root.resolve("FILE"), "a regular file\n");
        Files.write(root.resolve("binary"), new byte[] {0, 1, 2, (byte) 0xff, (byte) 0xfe, '\n', 7});
        Files.writeString(root.resolve("text"), "hello world\nthis is not a host file\n");
        Files.writeString(root.resolve("empty"), "# only a comment\n\n");
        Files.writeString(root.resolve("hosts"), "node1 slots=2\nnode2 slots=2\n");
        Files.writeString(root.resolve("spares-taken"), "node3\nnode2\n");
        Files.writeString(root.resolve("plan-negative"), "app=npb.CG\nregions=main\nevery.main=-1\n");
        Files.writeString(root.resolve("plan-no-regions"), "app=npb.CG\n");
        Files.writeString(root.resolve("plan-r"), "app=npb.CG\nregions=main\nrecomputability=1.5\n");
        Files.createSymbolicLink(root.resolve("dangling"), root.resolve("no-such-target"));
        Files.createSymbolicLink(root.resolve("link-to-FILE"), root.resolve("FILE"));
        Files.createSymbolicLink(root.resolve("link-to-DIR"), root.resolve("DIR"));
        secret("secret", JobSecret.MIN_BYTES, "rw-------");
        secret("secret-0644", JobSecret.MIN_BYTES, "rw-r--r--");
        secret("secret-short", 8, "rw-------");
        Files.createSymbolicLink(root.resolve("link-to-secret"), root.resolve("secret"));
    }

    private void secret(String name, int bytes, String mode) throws IOException {
        Path file = root.resolve(name);
        Files.write(file, new byte[bytes]);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
    }

    /** @return every path under {@code dir} with its type, mode and content hash (or link target), sorted */
    private static Map<String, String> tree(Path dir) throws IOException, NoSuchAlgorithmException {
        Map<String, String> entries = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.toList()) {
                String what;
                if (Files.isSymbolicLink(p)) {
                    what = "link " + Files.readSymbolicLink(p);
                } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    what = "dir " + PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
                } else {
                    what = "file " + PosixFilePermissions.toString(Files.getPosixFilePermissions(p)) + " "
                            + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                            .digest(Files.readAllBytes(p)));
                }
                entries.put(dir.relativize(p).toString(), what);
            }
        }
        return entries;
    }
}
