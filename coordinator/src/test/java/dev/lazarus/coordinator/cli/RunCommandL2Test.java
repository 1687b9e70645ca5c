package dev.lazarus.coordinator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.coordinator.launch.InstallLayout;
import dev.lazarus.daemon.l2.wire.JobSecret;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The L2 and L3 options of {@code lazarus run}, and the per-launch secrets it makes. */
class RunCommandL2Test {
    @TempDir
    Path dir;

    private String error(String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = LazarusCli.execute(args, new InstallLayout(dir), dir, Map.of(),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertNotEquals(0, status);
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void badL2OptionsAreOneLineErrors() {
        assertEquals("lazarus: --l2-every=-1 must be 0 to 1000000\n",
                error("run", "--np", "2", "--l2-every", "-1", "npb.CG"));
        assertEquals("lazarus: --l2-set-size=1 must be 2 to 256\n",
                error("run", "--np", "2", "--l2-set-size", "1", "npb.CG"));
        assertEquals("lazarus: --l2-scheme=raid6 must be xor or partner\n",
                error("run", "--np", "2", "--l2-scheme", "raid6", "npb.CG"));
        assertEquals("lazarus: --l2-secret: secret file missing: path=" + dir.resolve("none") + "\n",
                error("run", "--np", "2", "--l2-secret", dir.resolve("none").toString(), "npb.CG"));
    }

    @Test
    void theL3RetentionReachesTheRanks() {
        assertEquals("lazarus: --pfs-keep=-1 must be 0 to 1000\n",
                error("run", "--np", "2", "--pfs-keep", "-1", "npb.CG"));
        assertTrue(dryRun("--pfs-keep", "0").contains(" -Dlazarus.ckpt.pfs.keep=0 "));
    }

    @Test
    void thePartnerSchemeReachesTheRanks() {
        assertTrue(dryRun("--l2-scheme", "PARTNER").contains(" -Dlazarus.ckpt.l2.scheme=partner "));
    }

    /** @return what {@code lazarus run --np 2 OPTIONS --dry-run npb.CG} would launch */
    private String dryRun(String... options) {
        List<String> args = new ArrayList<>(List.of("run", "--np", "2"));
        args.addAll(List.of(options));
        args.addAll(List.of("--dry-run", "npb.CG"));
        Map<String, String> env = new HashMap<>(System.getenv());
        env.putIfAbsent("MPJ_HOME", Path.of(System.getProperty("user.home"), ".cache/lazarus/mpj").toString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = LazarusCli.execute(args.toArray(String[]::new),
                new InstallLayout(Path.of(System.getProperty("lazarus.home", "..")).toAbsolutePath()),
                Path.of(System.getProperty("java.home")), env, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void eachLaunchGetsAFreshOwnerOnlySecret() throws Exception {
        Map<String, String> env = Map.of(JobSecrets.DIR_ENV, dir.resolve("secrets").toString());
        Path first = JobSecrets.newPath(env, "heat/../x", "solver.HEAT");
        Path second = JobSecrets.newPath(env, null, "solver.HEAT");
        assertEquals(dir.resolve("secrets"), first.getParent());
        assertTrue(first.getFileName().toString().matches("heat_.._x-[0-9a-f]{16}\\.secret"), first::toString);
        assertTrue(second.getFileName().toString().startsWith("solver.HEAT-"), second::toString);
        JobSecrets.create(first);
        JobSecrets.create(second);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(first.getParent())));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(first)));
        assertEquals(JobSecret.MIN_BYTES, Files.size(first));
        assertTrue(!java.util.Arrays.equals(Files.readAllBytes(first), Files.readAllBytes(second)));
        JobSecret.load(first); // a file the L2 services accept
    }
}
