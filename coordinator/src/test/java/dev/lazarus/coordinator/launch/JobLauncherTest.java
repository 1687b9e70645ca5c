package dev.lazarus.coordinator.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.lazarus.coordinator.it.HookProbeApp;
import dev.lazarus.mpi.launch.ProcFiles;
import dev.lazarus.mpi.launch.RankMain;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Launch plans against the built tree of this checkout (the modules are packaged before these tests run). */
class JobLauncherTest {
    private static final Path HOME = Path.of(System.getProperty("lazarus.home", "..")).toAbsolutePath();
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));

    private static Map<String, String> environment() {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.putIfAbsent("MPJ_HOME", Path.of(System.getProperty("user.home"), ".cache/lazarus/mpj").toString());
        return env;
    }

    private static JobLauncher launcher(Map<String, String> env) {
        return new JobLauncher(new InstallLayout(HOME), JAVA_HOME, env,
                new PrintStream(new ByteArrayOutputStream()));
    }

    private static LaunchRequest request(int ranks, Backend backend, Path hosts, List<Path> classpath, String app) {
        return new LaunchRequest(ranks, backend, hosts, null, null, classpath, List.of("-Xmx1g"), app,
                List.of("--class", "S"), null);
    }

    private static String classpathOf(List<String> command) {
        return command.get(command.indexOf("-cp") + 1);
    }

    /** Spare cores are shared out among local ranks, so a rank's JIT and GC threads do not take its own core. */
    @Test
    void localOpenMpiRanksAreBoundToTheirShareOfTheCores() {
        assertEquals(2, JobLauncher.coresPerRank(1, 2));
        assertEquals(1, JobLauncher.coresPerRank(2, 2));
        assertEquals(1, JobLauncher.coresPerRank(4, 2));
        assertEquals(2, JobLauncher.coresPerRank(3, 8));
        int cores = Runtime.getRuntime().availableProcessors();
        List<String> one = launcher(environment()).plan(request(1, Backend.OPENMPI, null, List.of(), "npb.CG"))
                .command();
        if (cores > 1) {
            assertEquals("slot:PE=" + cores, one.get(one.indexOf("--map-by") + 1), one.toString());
        } else {
            assertFalse(one.contains("--map-by"), one.toString());
        }
        List<String> full = launcher(environment()).plan(request(cores, Backend.OPENMPI, null, List.of(), "npb.CG"))
                .command();
        assertFalse(full.contains("--map-by"), full.toString());
    }

    /** Ranks that leave no core free compile with C2 alone, and a user's own JIT option comes after and wins. */
    @Test
    void rankJvmsCompileWithC2AloneWhenEveryCoreHasARank() {
        assertTrue(JobLauncher.everyCoreBusy(2, 2));
        assertTrue(JobLauncher.everyCoreBusy(4, 2));
        assertFalse(JobLauncher.everyCoreBusy(1, 2));
        int cores = Runtime.getRuntime().availableProcessors();
        for (Backend backend : new Backend[] {Backend.OPENMPI, Backend.MPJ}) {
            List<String> full = launcher(environment()).plan(request(cores, backend, null, List.of(), "npb.CG"))
                    .command();
            int c2Only = full.indexOf(JobLauncher.C2_ONLY);
            assertTrue(c2Only >= 0, full.toString());
            assertTrue(c2Only < full.indexOf("-Xmx1g"), "the user's options come after: " + full);
            if (cores > 1) {
                List<String> spare = launcher(environment()).plan(request(1, backend, null, List.of(), "npb.CG"))
                        .command();
                assertFalse(spare.contains(JobLauncher.C2_ONLY), spare.toString());
            }
        }
    }

    /** MPJ's one JVM gets a C2 thread per rank thread, up to the cores, when it compiles with C2 alone. */
    @Test
    void mpjRanksGetACompilerThreadEachUpToTheCores() {
        assertEquals(2, JobLauncher.mpjCompilerThreads(2, 2));
        assertEquals(2, JobLauncher.mpjCompilerThreads(4, 2));
        assertEquals(4, JobLauncher.mpjCompilerThreads(4, 4));
        assertEquals(0, JobLauncher.mpjCompilerThreads(1, 2), "a core free: tiered, the JVM's default");
        assertEquals(0, JobLauncher.mpjCompilerThreads(1, 1), "one rank: the JVM's default");
        int cores = Runtime.getRuntime().availableProcessors();
        int ranks = Math.max(2, cores);
        List<String> mpj = launcher(environment()).plan(request(ranks, Backend.MPJ, null, List.of(), "npb.CG"))
                .command();
        String threads = "-XX:CICompilerCount=" + Math.min(ranks, cores);
        assertTrue(mpj.indexOf(threads) > mpj.indexOf(JobLauncher.C2_ONLY), mpj.toString());
        assertTrue(mpj.indexOf(threads) < mpj.indexOf("-Xmx1g"), "the user's options come after: " + mpj);
        List<String> openMpi = launcher(environment()).plan(request(ranks, Backend.OPENMPI, null, List.of(),
                "npb.CG")).command();
        assertTrue(openMpi.stream().noneMatch(o -> o.startsWith("-XX:CICompilerCount")), openMpi.toString());
    }

    /** The user's JIT options are checked together with the launcher's, not alone. */
    @Test
    void jvmOptionsAreCheckedWithTheLaunchersJitFlags() {
        assertEquals(List.of(JobLauncher.C2_ONLY, "-XX:CICompilerCount=2"),
                JobLauncher.jitFlags(request(2, Backend.MPJ, null, List.of(), "npb.CG"), 2));
        assertEquals(List.of(JobLauncher.C2_ONLY),
                JobLauncher.jitFlags(request(2, Backend.OPENMPI, null, List.of(), "npb.CG"), 2));
        assertEquals(List.of(), JobLauncher.jitFlags(request(2, Backend.OPENMPI, Path.of("hosts"), List.of(),
                "npb.CG"), 2), "other hosts may have other core counts");
        assertEquals(List.of(), JobLauncher.jitFlags(request(1, Backend.MPJ, null, List.of(), "npb.CG"), 2));
        int cores = Runtime.getRuntime().availableProcessors();
        // One compiler thread is valid with C2 alone only (tiered compilation needs two), so checked alone it failed.
        LaunchRequest oneThread = new LaunchRequest(Math.max(2, cores), Backend.MPJ, null, null, null, List.of(),
                List.of("-XX:CICompilerCount=1"), "npb.CG", List.of("--class", "S"), null);
        List<String> command = launcher(environment()).plan(oneThread).command();
        assertTrue(command.indexOf("-XX:CICompilerCount=1") > command.indexOf(JobLauncher.C2_ONLY), command.toString());
        LaunchRequest bad = new LaunchRequest(2, Backend.MPJ, null, null, null, List.of(),
                List.of("-XX:CICompilerCount=0"), "npb.CG", List.of("--class", "S"), null);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> launcher(environment()).plan(bad)).getMessage()
                .startsWith("--jvm-opt -XX:CICompilerCount=0: the rank JVM does not start: "));
    }

    @Test
    void openMpiPlanRunsRankMainUnderMpirunWithTheBackendAndApplications() {
        LaunchPlan plan = launcher(environment()).plan(request(3, Backend.OPENMPI, null, List.of(), "npb.CG"));
        List<String> command = plan.command();
        assertTrue(command.getFirst().endsWith("mpirun"), command.toString());
        assertEquals("3", command.get(command.indexOf("-np") + 1));
        // A failed rank's peers are SIGKILLed at once, not a second after SIGTERM.
        assertEquals("0", command.get(command.indexOf("odls_base_sigkill_timeout") + 1));
        assertEquals("--mca", command.get(command.indexOf("odls_base_sigkill_timeout") - 1));
        int main = command.indexOf("dev.lazarus.mpi.launch.RankMain");
        assertEquals(List.of("npb.CG", "--class", "S"), command.subList(main + 1, command.size()));
        int java = command.indexOf(JAVA_HOME.resolve("bin/java").toString());
        // Open MPI rewrites the class path of a program named java; through env it starts ours as it is.
        assertEquals(JobLauncher.ENV_PROGRAM, command.get(java - 1), command.toString());
        assertTrue(command.contains("-Xmx1g"));
        String classpath = classpathOf(command);
        assertTrue(classpath.contains("lazarus-mpi-openmpi-"), classpath);
        assertTrue(classpath.contains("mpi-4.1.4.jar"), classpath);
        assertTrue(classpath.contains("lazarus-npb-java-"), classpath);
        assertFalse(classpath.contains("lazarus-mpi-mpj-"), classpath);
        assertEquals(1, classpath.split("lazarus-mpi-runtime-").length - 1, "core jar once: " + classpath);
        assertTrue(plan.ranksBeat(), "an EasyCrash application's ranks write heartbeats");
        assertFalse(launcher(environment()).plan(request(3, Backend.OPENMPI, null, List.of(),
                HookProbeApp.class.getName())).ranksBeat(), "a plain MPI application's do not");
    }

    /**
     * MPJ's ranks run in our JDK's JVM, started by the launcher with MPJ's starter as its main class: the runtime and
     * the bundled applications on the JVM's class path (shared by the rank threads), the user's entries and the MPJ
     * backend on each rank's.
     */
    @Test
    void mpjPlanSharesTheBundledClassesAndLoadsTheUsersAndTheBackendPerRank(@TempDir Path userClasses) {
        LaunchPlan plan = launcher(environment()).plan(request(2, Backend.MPJ, null, List.of(userClasses), "npb.IS"));
        List<String> command = plan.command();
        assertEquals(JAVA_HOME.resolve("bin/java").toString(), command.getFirst());
        assertEquals(environment().get("MPJ_HOME"), plan.environment().get("MPJ_HOME"));
        Path mpjLib = Path.of(environment().get("MPJ_HOME"), "lib");
        List<String> shared = List.of(classpathOf(command).split(":"));
        assertEquals(mpjLib.resolve("smpdev.jar").toString(), shared.getFirst(), shared.toString());
        assertTrue(shared.stream().anyMatch(e -> e.contains("lazarus-npb-java-")), shared.toString());
        assertTrue(shared.stream().anyMatch(e -> e.contains("lazarus-mpi-runtime-")), shared.toString());
        assertFalse(shared.stream().anyMatch(e -> e.contains("lazarus-mpi-mpj-")), "per rank: " + shared);
        assertFalse(shared.contains(userClasses.toString()), "the user's classes are per rank: " + shared);
        int main = command.indexOf(MpjMulticore.MAIN_CLASS);
        assertTrue(main > command.indexOf("-Xmx1g"), "the JVM's options come first: " + command);
        assertEquals(List.of(mpjLib.toString(), "2", "smpdev", "useLocalLoader"),
                command.subList(main + 1, main + 5));
        List<String> perRank = List.of(command.get(main + 5).split(":"));
        assertEquals(2, perRank.size(), perRank.toString());
        assertEquals(userClasses.toString(), perRank.getFirst());
        assertTrue(perRank.getLast().contains("lazarus-mpi-mpj-"), perRank.toString());
        assertEquals(List.of(RankMain.class.getName(), "npb.IS", "--class", "S"),
                command.subList(main + 6, command.size()));
    }

    @Test
    void badRequestsAreRefusedBeforeAnythingStarts(@TempDir Path dir) throws Exception {
        JobLauncher launcher = launcher(environment());
        assertEquals("--np=0 must be at least 1", assertThrows(IllegalArgumentException.class,
                () -> launcher.plan(request(0, Backend.OPENMPI, null, List.of(), "npb.CG"))).getMessage());
        Path hosts = Files.writeString(dir.resolve("hosts"), "localhost slots=2\n");
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> launcher.plan(request(2, Backend.MPJ, hosts, List.of(), "npb.CG"))).getMessage()
                .startsWith("--hosts needs --backend openmpi"));
        assertEquals("class path entry " + dir.resolve("nope.jar") + " does not exist",
                assertThrows(IllegalArgumentException.class, () -> launcher.plan(
                        request(2, Backend.OPENMPI, null, List.of(dir.resolve("nope.jar")), "npb.CG"))).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> launcher.plan(request(2, Backend.OPENMPI, null, List.of(), "npb.XX"))).getMessage()
                .startsWith("unknown application 'npb.XX' (known: npb.CG, npb.EP, npb.FT, npb.IS, npb.MG, solver.HEAT)"));
    }

    @Test
    void missingBackendIsNamedWithTheFix() {
        Map<String, String> env = environment();
        env.put("PATH", "/nonexistent");
        assertEquals("backend openmpi is not installed: mpirun is not on PATH (scripts/setup installs openmpi-bin)",
                assertThrows(IllegalArgumentException.class, () -> launcher(env)
                        .plan(request(1, Backend.OPENMPI, null, List.of(), "npb.CG"))).getMessage());
        env.remove("MPJ_HOME");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> launcher(env)
                .plan(request(1, Backend.MPJ, null, List.of(), "npb.CG"))).getMessage()
                .startsWith("backend mpj is not installed: MPJ_HOME is not set"));
    }

    @Test
    void networkConfinesOpenMpiTrafficAndIsValidated() {
        LaunchRequest base = request(2, Backend.OPENMPI, null, List.of(), "npb.CG");
        LaunchRequest confined = new LaunchRequest(2, Backend.OPENMPI, null, null, "10.213.0.0/24", List.of(),
                List.of(), "npb.CG", List.of(), null);
        List<String> command = launcher(environment()).plan(confined).command();
        assertEquals("10.213.0.0/24", command.get(command.indexOf("oob_tcp_if_include") + 1));
        assertEquals("10.213.0.0/24", command.get(command.indexOf("btl_tcp_if_include") + 1));
        assertFalse(launcher(environment()).plan(base).command().contains("oob_tcp_if_include"));
        LaunchRequest bad = new LaunchRequest(2, Backend.OPENMPI, null, null, "eth0", List.of(), List.of(), "npb.CG",
                List.of(), null);
        assertEquals("--net=eth0 is not an IPv4 CIDR such as 10.1.0.0/24 (octets 0 to 255, prefix 0 to 32)",
                assertThrows(IllegalArgumentException.class, () -> launcher(environment()).plan(bad)).getMessage());
    }

    /**
     * A launcher that fails before any rank runs (Open MPI cannot start its daemons, say) is one line of ours, not
     * "ranks recorded no exit status (killed or crashed)"; ranks that ran and died are still named.
     */
    @Test
    void aLauncherThatStartsNoRankIsNotReportedAsCrashedRanks() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        JobLauncher launcher = new JobLauncher(new InstallLayout(HOME), JAVA_HOME, environment(),
                new PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        LaunchRequest request = request(2, Backend.OPENMPI, null, List.of(), "npb.CG");
        assertEquals(243, launcher.run(new LaunchPlan(request, List.of("sh", "-c", "exit 243"), Map.of())));
        assertEquals("lazarus: the job did not start: the launcher failed with exit status 243 before any rank ran"
                + " (check --hosts, --rsh-agent and --net)\n", err.toString(java.nio.charset.StandardCharsets.UTF_8));
        err.reset();
        String startedAndDied = "touch \"$LAZARUS_STATUS_DIR/rank-0.started\" \"$LAZARUS_STATUS_DIR/rank-1.started\";"
                + " echo 0 > \"$LAZARUS_STATUS_DIR/rank-0.status\"; exit 137";
        assertEquals(137, launcher.run(new LaunchPlan(request, List.of("sh", "-c", startedAndDied), Map.of())));
        assertEquals("lazarus: ranks [1] recorded no exit status (killed or crashed); launcher exit status 137\n",
                err.toString(java.nio.charset.StandardCharsets.UTF_8));
    }

    /**
     * Open MPI's own lines on mpirun's standard error never reach the user: one line of ours says what they meant and
     * where they are kept (a 0600 file), while the ranks' lines on the same stream pass through unchanged.
     */
    @Test
    void openMpisOwnTextIsOneLineOfOursAndKeptInAPrivateLog() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        JobLauncher launcher = new JobLauncher(new InstallLayout(HOME), JAVA_HOME, environment(),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        LaunchRequest request = request(2, Backend.OPENMPI, null, List.of(), "npb.CG");
        String script = "echo 'lazarus: a rank line' >&2; echo '" + "-".repeat(74) + "' >&2;"
                + " echo 'ORTE has lost communication with a remote daemon.' >&2; echo '" + "-".repeat(74) + "' >&2;"
                + " touch \"$LAZARUS_STATUS_DIR/rank-0.started\"; exit 205";
        assertEquals(205, launcher.run(new LaunchPlan(request, List.of("sh", "-c", script), Map.of())));
        List<String> lines = err.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(2, lines.size(), lines.toString());
        assertEquals("lazarus: a rank line", lines.get(0));
        Matcher said = Pattern.compile("lazarus: ranks \\[0, 1\\] recorded no exit status \\(killed or crashed\\);"
                + " launcher exit status 205; Open MPI: Open MPI lost a host's daemon: the host or its network failed"
                + " \\(Open MPI's text: (\\S+)\\)").matcher(lines.get(1));
        assertTrue(said.matches(), lines.get(1));
        Path log = Path.of(said.group(1));
        try {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(log)));
            assertEquals(List.of("-".repeat(74), "ORTE has lost communication with a remote daemon.", "-".repeat(74)),
                    Files.readAllLines(log));
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /**
     * Each rank JVM prints the JDK's incubator notice (the Vector API is resolved for the heap's bulk operations) on
     * its standard error, which MPJ's launcher forwards to its standard output: with either backend the user sees the
     * ranks' own lines only, in order, on the stream they were written to.
     */
    @Test
    void theRankJvmsIncubatorNoticeIsDroppedWithEitherBackend() throws Exception {
        for (Backend backend : Backend.values()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            JobLauncher launcher = new JobLauncher(new InstallLayout(HOME), JAVA_HOME, environment(),
                    new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            LaunchRequest request = request(1, backend, null, List.of(), "npb.CG");
            String notice = "echo '" + RankJvmNotice.INCUBATOR + "'";
            String script = notice + " >&2; echo 'rank 0 says one' >&2; " + notice + " >&2; echo 'rank 0 says two' >&2;"
                    + (backend == Backend.MPJ ? notice + "; echo 'rank 0 prints';" : "")
                    + " touch \"$LAZARUS_STATUS_DIR/rank-0.started\"; echo 0 > \"$LAZARUS_STATUS_DIR/rank-0.status\"";
            assertEquals(0, launcher.run(new LaunchPlan(request, List.of("sh", "-c", script), Map.of())));
            assertEquals(List.of("rank 0 says one", "rank 0 says two"),
                    err.toString(StandardCharsets.UTF_8).lines().toList(), backend.name());
            if (backend == Backend.MPJ) {
                assertEquals(List.of("rank 0 prints"), out.toString(StandardCharsets.UTF_8).lines().toList());
            }
        }
    }

    /**
     * Real mpirun, whose remote shell fails the way ssh does to an unreachable host: Open MPI's and the shell's text
     * become one line that names the host, and the status is the launcher's.
     */
    @Test
    void aRemoteShellThatCannotReachAHostIsOneLineOfOurs(@TempDir Path dir) throws Exception {
        Path hosts = Files.writeString(dir.resolve("hosts"), "192.0.2.1 slots=2\n");   // TEST-NET-1: never a host
        Path agent = dir.resolve("ssh");
        // Open MPI calls the agent as ssh: options first (-x), then the host, then the daemon's command line.
        Files.writeString(agent, "#!/bin/sh\nwhile [ \"${1#-}\" != \"$1\" ]; do shift; done\n"
                + "echo \"ssh: connect to host $1 port 22: Connection refused\" >&2\nexit 255\n");
        Files.setPosixFilePermissions(agent, PosixFilePermissions.fromString("rwx------"));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        JobLauncher launcher = new JobLauncher(new InstallLayout(HOME), JAVA_HOME, environment(),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        LaunchRequest request = new LaunchRequest(2, Backend.OPENMPI, hosts, agent.toString(), null, List.of(),
                List.of(), "npb.EP", List.of("--class", "S"), Duration.ofMinutes(2));
        int status = launcher.run(launcher.plan(request));
        List<String> lines = err.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(1, lines.size(), lines.toString());
        Matcher said = Pattern.compile("lazarus: the job did not start: cannot reach host 192\\.0\\.2\\.1 by ssh"
                + " \\(port 22\\): Connection refused \\(check --hosts and --net\\) \\(Open MPI's text: (\\S+)\\);"
                + " launcher exit status " + status).matcher(lines.getFirst());
        assertTrue(status != 0 && said.matches(), status + ": " + lines);
        Files.deleteIfExists(Path.of(said.group(1)));
    }

    @Test
    void aRelativeRemoteShellIsMadeAbsoluteForOpenMpisDaemons() {
        String cwd = Path.of("").toAbsolutePath().toString();
        assertEquals(cwd + "/scripts/netns-rsh -x:ssh:/usr/bin/rsh", JobLauncher.absoluteAgent(
                "scripts/netns-rsh -x:ssh:/usr/bin/rsh"));
        assertEquals(cwd + "/rsh", JobLauncher.absoluteAgent("./rsh"));
    }

    /** The checks before mpirun must not refuse what Open MPI accepts: comments, slot keys, user@host, agents. */
    @Test
    void realHostFilesAndAgentsWithArgumentsAreAccepted(@TempDir Path dir) throws Exception {
        Path hosts = Files.writeString(dir.resolve("hosts"), "# the cluster\n\nnode-1 slots=2 max_slots=4  # rack 1\n"
                + "user@10.213.0.2\tslots=1\nnode3.example.org\n");
        LaunchRequest request = new LaunchRequest(2, Backend.OPENMPI, hosts, "sh -c : ssh", "10.213.0.0/24",
                List.of(), List.of(), "npb.CG", List.of(), null);
        List<String> command = launcher(environment()).plan(request).command();
        assertEquals(hosts.toString(), command.get(command.indexOf("--hostfile") + 1));
        assertEquals("sh -c : ssh", command.get(command.indexOf("plm_rsh_agent") + 1));
        Path garbage = Files.writeString(dir.resolve("garbage"), "node-1 slots=two\n");
        assertEquals("--hosts " + garbage + " line 1: 'slots=two' is not a key=N setting Open MPI knows"
                + " (expected: host [slots=N] ...)", assertThrows(IllegalArgumentException.class,
                () -> launcher(environment()).plan(new LaunchRequest(2, Backend.OPENMPI, garbage, null, null,
                        List.of(), List.of(), "npb.CG", List.of(), null))).getMessage());
    }

    @Test
    void backendNamesParseCaseInsensitively() {
        assertEquals(Backend.MPJ, Backend.parse("MPJ"));
        assertEquals(Backend.OPENMPI, Backend.parse("openmpi"));
        assertEquals("expected openmpi or mpj but was 'mpich'",
                assertThrows(IllegalArgumentException.class, () -> Backend.parse("mpich")).getMessage());
    }

    @Test
    void aProcessTheLauncherLeftBehindEndsWithTheLaunch(@TempDir Path dir) throws Exception {
        // As MPJ's starter JVM killed under its rank JVM: the launcher dies, its child is re-parented to init.
        Path pidFile = dir.resolve("child.pid");
        List<String> command = List.of("sh", "-c", "sleep 600 & echo $! > " + pidFile + ".tmp && mv " + pidFile
                + ".tmp " + pidFile + " && wait");
        LaunchPlan plan = new LaunchPlan(request(1, Backend.OPENMPI, null, List.of(), "npb.CG"), command, Map.of());
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        JobLauncher launcher = new JobLauncher(new InstallLayout(HOME), JAVA_HOME, environment(),
                new PrintStream(err, true));
        java.util.concurrent.CompletableFuture<Integer> status = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return launcher.run(plan);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (!Files.exists(pidFile) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        ProcessHandle child = ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip())).orElseThrow();
        try {
            child.parent().orElseThrow().destroyForcibly();
            assertEquals(137, status.get(30, java.util.concurrent.TimeUnit.SECONDS));
            // Ended: gone, or a zombie init has not reaped yet (this machine's init reaps about once a second).
            assertTrue(ProcFiles.ended(child.pid()), "the launcher's child outlived the launch");
            assertTrue(err.toString().contains("lazarus: killed 1 process(es) of the job that outlived its launcher"
                    + " (exit status 137)"), err.toString());
        } finally {
            child.destroyForcibly();
        }
    }
}
