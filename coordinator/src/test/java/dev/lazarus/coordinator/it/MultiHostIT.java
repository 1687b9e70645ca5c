package dev.lazarus.coordinator.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.lazarus.testing.LazarusProcess;
import dev.lazarus.testing.NetnsHosts;

import dev.lazarus.mpi.launch.ExitStatusFiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A 4-rank job across 2 simulated hosts: network namespaces made by {@code scripts/netns-hosts}, reached by Open MPI
 * through {@code scripts/netns-rsh}. Needs root and {@code ip netns}; skipped otherwise.
 */
class MultiHostIT {
    private static final String SUCCESS = "Verification    =               SUCCESSFUL";
    private static final String PREFIX = "lzit";
    /** Its own /24, so a manual {@code netns-hosts up} (10.213.0) can stay up while this runs. */
    private static final String SUBNET = "10.213.9";
    private static final Duration SCRIPT_TIMEOUT = NetnsHosts.SCRIPT_TIMEOUT;

    private static boolean hostsCreated;
    private static Path hostfile;
    private static Path hostsDir;
    private static final Map<String, String> jobEnvironment = new HashMap<>();

    @BeforeAll
    static void bringUpTwoHosts() throws Exception {
        assumeTrue(NetnsHosts.available(), "network namespaces need root and ip netns (iproute2)");
        hostsCreated = true;
        NetnsHosts.Output down = NetnsHosts.script("netns-hosts", "down", "--prefix", PREFIX); // leftovers of a killed earlier run
        assertEquals(0, down.status(), down.text());
        NetnsHosts.Output up = NetnsHosts.script("netns-hosts", "up", "2", "--prefix", PREFIX, "--subnet", SUBNET);
        assertEquals(0, up.status(), up.text());
        List<String> upLines = up.text().strip().lines().toList();
        hostfile = Path.of(upLines.getLast());
        hostsDir = hostfile.getParent();
        assertEquals(List.of(SUBNET + ".11 slots=2", SUBNET + ".12 slots=2"), Files.readAllLines(hostfile));
        NetnsHosts.Output env = NetnsHosts.script("netns-hosts", "env", "--prefix", PREFIX);
        assertEquals(0, env.status(), env.text());
        for (String line : env.text().lines().toList()) {
            if (line.startsWith("export ") && line.contains("=")) {
                String assignment = line.substring("export ".length());
                jobEnvironment.put(assignment.substring(0, assignment.indexOf('=')),
                        assignment.substring(assignment.indexOf('=') + 1));
            }
        }
        assertEquals(SUBNET + ".0/24", jobEnvironment.get("OMPI_MCA_oob_tcp_if_include"), env.text());
    }

    @AfterAll
    static void tearDownHosts() throws Exception {
        if (hostsCreated) {
            NetnsHosts.Output down = NetnsHosts.script("netns-hosts", "down", "--prefix", PREFIX);
            assertEquals(0, down.status(), down.text());
            assertFalse(Files.exists(Path.of("/run/netns", PREFIX + "1")), "namespace " + PREFIX + "1 left over");
        }
    }

    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void cgClassSRunsTwoRanksOnEachOfTwoHosts() throws Exception {
        Path state = Files.createTempDirectory("lazarus-multihost-state-");
        List<String> command = List.of(LazarusProcess.home().resolve("lazarus").toString(), "run", "--np", "4",
                "--backend", "openmpi", "--hosts", hostfile.toString(), "--rsh-agent",
                LazarusProcess.home().resolve("scripts/netns-rsh").toString(), "--net", SUBNET + ".0/24",
                "--timeout", "300", "--state-dir", state.toString(), "--job", "cg-hosts", "npb.CG",
                "--class", "S");
        TreeSet<String> statusDirs = new TreeSet<>();
        Path log = Files.createTempFile("lazarus-multihost-", ".log");
        Map<String, Set<Long>> ranksByHost = new TreeMap<>();
        Map<String, NamespaceId> namespaces = new TreeMap<>();
        for (String host : List.of(PREFIX + "1", PREFIX + "2")) {
            namespaces.put(host, NamespaceId.of(Path.of("/run/netns", host)));
            ranksByHost.put(host, new TreeSet<>());
        }
        int status;
        String output;
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            builder.environment().put("LAZARUS_NO_BUILD", "1");
            builder.environment().putAll(jobEnvironment);
            Process process = builder.start();
            long deadline = System.nanoTime() + Duration.ofMinutes(6).toNanos();
            // While the job runs, find its rank JVMs and the host (namespace) each one is in.
            while (!process.waitFor(100, TimeUnit.MILLISECONDS)) {
                if (System.nanoTime() > deadline) {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                    throw new AssertionError("the job did not finish within 6 minutes; output:\n" + NetnsHosts.read(log));
                }
                process.descendants().forEach(p -> {
                    // A child a rank forks (a native library's helper) shows the rank's command line until it
                    // execs: count only JVMs whose parent is not a rank.
                    if (isRank(p.pid()) && p.parent().map(parent -> !isRank(parent.pid())).orElse(true)) {
                        statusDir(p.pid()).ifPresent(statusDirs::add);
                        NamespaceId ns = NamespaceId.ofProcess(p.pid());
                        namespaces.forEach((host, id) -> {
                            if (id.equals(ns)) {
                                ranksByHost.get(host).add(p.pid());
                            }
                        });
                    }
                });
            }
            status = process.exitValue();
            output = NetnsHosts.read(log);
        } finally {
            Files.deleteIfExists(log);
        }
        assertEquals(0, status, output);
        assertTrue(output.contains(SUCCESS), output);
        assertTrue(output.lines().anyMatch(l -> l.matches(" Total processes\\s+=\\s+4")), output);
        // Open MPI fills the host file's slots in order: ranks 0-1 on the first host, 2-3 on the second.
        assertEquals(2, ranksByHost.get(PREFIX + "1").size(), "rank JVMs seen per host: " + ranksByHost);
        assertEquals(2, ranksByHost.get(PREFIX + "2").size(), "rank JVMs seen per host: " + ranksByHost);
        for (String host : ranksByHost.keySet()) {
            String launches = NetnsHosts.read(hostsDir.resolve(host).resolve("rsh.log"));
            assertTrue(launches.contains("orted"), "netns-rsh started no daemon on " + host + ": " + launches);
        }
        // On several hosts the launch's status directory is in the job's state directory, which every host of a
        // real cluster sees (this host's /tmp would not be): every rank had it, and it is gone after the launch.
        Path root = state.resolve("cg-hosts").resolve("launch-status");
        assertEquals(1, statusDirs.size(), statusDirs.toString());
        assertTrue(statusDirs.first().startsWith(root + "/launch-"), statusDirs + " not in " + root);
        assertTrue(Files.isDirectory(root), root.toString());
        try (var left = Files.list(root)) {
            assertEquals(List.of(), left.toList(), "the launch's status directory is removed after it");
        }
    }

    /** @return the status directory a rank's environment names */
    private static Optional<String> statusDir(long pid) {
        try {
            String environment = Files.readString(Path.of("/proc", Long.toString(pid), "environ"));
            return Arrays.stream(environment.split("\0"))
                    .filter(v -> v.startsWith(ExitStatusFiles.ENV + "=")).findFirst()
                    .map(v -> v.substring(ExitStatusFiles.ENV.length() + 1));
        } catch (IOException e) {
            return Optional.empty(); // the rank ended meanwhile
        }
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void rshAgentRunsTheShellCommandInsideTheHostWithItsDirectories() throws Exception {
        NetnsHosts.Output out = NetnsHosts.script("netns-rsh", SUBNET + ".12",
                "echo", "\"$LAZARUS_HOST $(ip netns identify $$) $LAZARUS_RAMDISK_DIR $LAZARUS_NVM_DIR\"");
        assertEquals(0, out.status(), out.text());
        Path host2 = hostsDir.resolve(PREFIX + "2");
        assertEquals(PREFIX + "2 " + PREFIX + "2 " + host2.resolve("ramdisk") + " " + host2.resolve("nvm"),
                out.text().strip());
        assertEquals(7, NetnsHosts.script("netns-rsh", PREFIX + "1", "exit", "7").status());
        NetnsHosts.Output unknown = NetnsHosts.script("netns-rsh", SUBNET + ".99", "true");
        assertEquals(255, unknown.status(), unknown.text());
        assertTrue(unknown.text().startsWith("netns-rsh: unknown host"), unknown.text());
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void killCrashesAHostWipingItsRamdiskButNotItsNvm() throws Exception {
        Path host1 = hostsDir.resolve(PREFIX + "1");
        Files.writeString(host1.resolve("ramdisk/checkpoint"), "lost with the node");
        Files.writeString(host1.resolve("nvm/checkpoint"), "survives the node");
        Process sleeper = new ProcessBuilder(NetnsHosts.script("netns-hosts").toString(), "exec", PREFIX + "1", "sleep", "600")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            NamespaceId ns1 = NamespaceId.of(Path.of("/run/netns", PREFIX + "1"));
            long deadline = System.nanoTime() + SCRIPT_TIMEOUT.toNanos();
            while (!ns1.equals(NamespaceId.ofProcess(sleeper.pid())) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertEquals(ns1, NamespaceId.ofProcess(sleeper.pid()), "netns-hosts exec did not enter the host");
            NetnsHosts.Output kill = NetnsHosts.script("netns-hosts", "kill", PREFIX + "1");
            assertEquals(0, kill.status(), kill.text());
            assertTrue(sleeper.waitFor(30, TimeUnit.SECONDS), "the host's process survived netns-hosts kill");
            assertEquals(137, sleeper.exitValue(), "killed by SIGKILL");
        } finally {
            sleeper.destroyForcibly();
        }
        assertFalse(Files.exists(host1.resolve("ramdisk/checkpoint")));
        assertEquals("survives the node", Files.readString(host1.resolve("nvm/checkpoint")));
        Files.delete(host1.resolve("nvm/checkpoint"));
    }

    /** A JVM running a rank of this test's job (its command line names RankMain and npb.CG). */
    private static boolean isRank(long pid) {
        try {
            String cmdline = Files.readString(Path.of("/proc", Long.toString(pid), "cmdline"),
                    StandardCharsets.UTF_8).replace('\0', ' ');
            return cmdline.contains("dev.lazarus.mpi.launch.RankMain") && cmdline.contains("npb.CG");
        } catch (IOException e) {
            return false; // gone already
        }
    }

    /** A network namespace, as the device and inode of its nsfs file (what {@code ip netns pids} compares). */
    private record NamespaceId(Object device, Object inode) {
        static NamespaceId of(Path nsFile) throws IOException {
            return new NamespaceId(Files.getAttribute(nsFile, "unix:dev"), Files.getAttribute(nsFile, "unix:ino"));
        }

        static NamespaceId ofProcess(long pid) {
            try {
                return of(Path.of("/proc", Long.toString(pid), "ns", "net"));
            } catch (IOException e) {
                return null; // gone already
            }
        }
    }
}
