package dev.lazarus.testing;

import dev.lazarus.mpi.launch.ProcFiles;

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
public record NetnsHosts(String prefix, Path hostfile, Map<String, String> env) {
    /** How long one call of a script may take. */
    public static final Duration SCRIPT_TIMEOUT = Duration.ofSeconds(90);

    /** What a script printed, and its exit status. */
    public record Output(int status, String text) {
    }

    /** @return whether this machine can make the hosts: root, and {@code ip netns} */
    public static boolean available() {
        return isRoot() && ipNetnsAvailable();
    }

    /** Brings up {@code count} hosts, removing leftovers of a killed earlier run first. */
    public static NetnsHosts up(String prefix, String subnet, int count, int slots) throws Exception {
        down(prefix);
        Output up = script("netns-hosts", "up", Integer.toString(count), "--prefix", prefix, "--subnet", subnet,
                "--slots", Integer.toString(slots));
        succeeded(up);
        Path hostfile = Path.of(up.text().strip().lines().toList().getLast());
        Output env = script("netns-hosts", "env", "--prefix", prefix);
        succeeded(env);
        Map<String, String> exports = new HashMap<>();
        for (String line : env.text().lines().toList()) {
            if (line.startsWith("export ") && line.contains("=")) {
                String assignment = line.substring("export ".length());
                exports.put(assignment.substring(0, assignment.indexOf('=')),
                        assignment.substring(assignment.indexOf('=') + 1));
            }
        }
        if (!(subnet + ".0/24").equals(exports.get("OMPI_MCA_oob_tcp_if_include"))) {
            throw new AssertionError("netns-hosts env does not confine Open MPI to " + subnet + ".0/24:\n"
                    + env.text());
        }
        return new NetnsHosts(prefix, hostfile, Map.copyOf(exports));
    }

    /** Removes every host of the prefix and what they held. */
    public static void down(String prefix) throws Exception {
        Output down = script("netns-hosts", "down", "--prefix", prefix);
        succeeded(down);
    }

    /** @return the directory holding every host's ramdisk, nvm and tmp directories */
    public Path hostsDirectory() {
        return hostfile.getParent();
    }

    /** @return the RAM disk directory of host {@code i} (1-based) */
    public Path ramdisk(int i) {
        return hostsDirectory().resolve(prefix + i).resolve("ramdisk");
    }

    /** Crashes host {@code i}: SIGKILLs every process in it and wipes its RAM disk. */
    public Output kill(int i) throws Exception {
        Output out = script("netns-hosts", "kill", prefix + i);
        succeeded(out);
        return out;
    }

    /**
     * Powers host {@code i} off (every process in it SIGKILLed, its RAM disk and NVM wiped, and the agent refusing it
     * as ssh refuses a dead node) or on again (empty).
     */
    public Output power(int i, boolean on) throws Exception {
        Output out = script("netns-hosts", "power", prefix + i, on ? "on" : "off");
        succeeded(out);
        return out;
    }

    /**
     * SIGKILLs the processes of host {@code i} whose command line contains {@code command} (one process dies, the
     * host and the rest of it stay).
     *
     * @return how many were killed
     */
    public int killProcesses(int i, String command) throws Exception {
        return signalProcesses(i, command, "KILL");
    }

    /**
     * Sends {@code signal} (KILL, STOP, CONT, ...) to the processes of host {@code i} whose command line contains
     * {@code command}.
     *
     * @return how many were signalled
     */
    public int signalProcesses(int i, String command, String signal) throws Exception {
        Process pids = new ProcessBuilder("ip", "netns", "pids", prefix + i).redirectErrorStream(true).start();
        String listed = new String(pids.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!pids.waitFor(30, TimeUnit.SECONDS) || pids.exitValue() != 0) {
            throw new AssertionError("ip netns pids " + prefix + i + " failed: " + listed);
        }
        List<String> matching = new ArrayList<>();
        for (String pid : listed.split("\\s+")) {
            if (!pid.isBlank() && ProcFiles.commandLine(Long.parseLong(pid))
                    .filter(line -> line.contains(command)).isPresent()) {
                matching.add(pid);
            }
        }
        if (!matching.isEmpty()) {
            List<String> kill = new ArrayList<>(List.of("kill", "-" + signal));
            kill.addAll(matching);
            Process signalled = new ProcessBuilder(kill).redirectErrorStream(true).start();
            String said = new String(signalled.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!signalled.waitFor(30, TimeUnit.SECONDS) || signalled.exitValue() != 0) {
                throw new AssertionError(String.join(" ", kill) + " failed: " + said);
            }
        }
        return matching.size();
    }

    /** @return the path of one of the project's scripts */
    public static Path script(String name) {
        return LazarusProcess.home().resolve("scripts").resolve(name);
    }

    /** Runs one of the scripts to completion (bounded) and returns its status and combined output. */
    public static Output script(String name, String... args) throws IOException, InterruptedException {
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

    public static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }

    /** Fails the test with the script's output unless it exited with status 0. */
    private static void succeeded(Output output) {
        if (output.status() != 0) {
            throw new AssertionError("exit status " + output.status() + ":\n" + output.text());
        }
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
