package dev.lazarus.coordinator.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Simulated cluster nodes for integration tests: network namespaces made by {@code scripts/netns-hosts}, which Open
 * MPI reaches through {@code scripts/netns-rsh}. Each test class uses its own prefix and /24.
 *
 * @param prefix   the hosts' name prefix: hosts are prefix1, prefix2, ...
 * @param hostfile the Open MPI host file
 * @param env      what {@code netns-hosts env} exports for a job on the hosts
 */
record NetnsHosts(String prefix, Path hostfile, Map<String, String> env) {
    static final Duration SCRIPT_TIMEOUT = Duration.ofSeconds(90);

    /** What a script printed, and its exit status. */
    record Output(int status, String text) {
    }

    /** @return whether this machine can make the hosts: root, and {@code ip netns} */
    static boolean available() {
        return isRoot() && ipNetnsAvailable();
    }

    /** Brings up {@code count} hosts, removing leftovers of a killed earlier run first. */
    static NetnsHosts up(String prefix, String subnet, int count, int slots) throws Exception {
        down(prefix);
        Output up = script("netns-hosts", "up", Integer.toString(count), "--prefix", prefix, "--subnet", subnet,
                "--slots", Integer.toString(slots));
        assertEquals(0, up.status(), up.text());
        Path hostfile = Path.of(up.text().strip().lines().toList().getLast());
        Output env = script("netns-hosts", "env", "--prefix", prefix);
        assertEquals(0, env.status(), env.text());
        Map<String, String> exports = new HashMap<>();
        for (String line : env.text().lines().toList()) {
            if (line.startsWith("export ") && line.contains("=")) {
                String assignment = line.substring("export ".length());
                exports.put(assignment.substring(0, assignment.indexOf('=')),
                        assignment.substring(assignment.indexOf('=') + 1));
            }
        }
        assertEquals(subnet + ".0/24", exports.get("OMPI_MCA_oob_tcp_if_include"), env.text());
        return new NetnsHosts(prefix, hostfile, Map.copyOf(exports));
    }

    /** Removes every host of the prefix and what they held. */
    static void down(String prefix) throws Exception {
        Output down = script("netns-hosts", "down", "--prefix", prefix);
        assertEquals(0, down.status(), down.text());
    }

    /** @return the directory holding every host's ramdisk, nvm and tmp directories */
    Path hostsDirectory() {
        return hostfile.getParent();
    }

    /** @return the RAM disk directory of host {@code i} (1-based) */
    Path ramdisk(int i) {
        return hostsDirectory().resolve(prefix + i).resolve("ramdisk");
    }

    /** Crashes host {@code i}: SIGKILLs every process in it and wipes its RAM disk. */
    Output kill(int i) throws Exception {
        Output out = script("netns-hosts", "kill", prefix + i);
        assertEquals(0, out.status(), out.text());
        return out;
    }

    /** @return the path of one of the project's scripts */
    static Path script(String name) {
        return LazarusProcess.home().resolve("scripts").resolve(name);
    }

    /** Runs one of the scripts to completion (bounded) and returns its status and combined output. */
    static Output script(String name, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(script(name).toString()));
        command.addAll(List.of(args));
        Path log = Files.createTempFile("lazarus-netns-", ".log");
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                    .start();
            if (!process.waitFor(SCRIPT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                throw new AssertionError(String.join(" ", command) + " did not finish within " + SCRIPT_TIMEOUT
                        + "; output:\n" + read(log));
            }
            return new Output(process.exitValue(), read(log));
        } finally {
            Files.deleteIfExists(log);
        }
    }

    static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }

    private static boolean isRoot() {
        try {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    private static boolean ipNetnsAvailable() {
        try {
            Process process = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return false;
            }
            return process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
