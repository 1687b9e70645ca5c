package dev.lazarus.coordinator.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lazarus.testing.LazarusProcess;
import dev.lazarus.testing.NetnsHosts;
import dev.lazarus.testing.RunningJob;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Node failures under real processes: solver.HEAT class A on three simulated hosts (network namespaces), one Open MPI
 * rank each, checkpointing every 200 iterations to each host's own RAM disk (L1), to XOR parity across the three
 * hosts (L2, one set) and to a shared directory standing for the PFS (L3); a fourth host is the job's spare. A host
 * is crashed with {@code netns-hosts kill} (every process in it SIGKILLed, its RAM disk wiped) or powered off
 * ({@code netns-hosts power off}: its agent then refuses it as ssh refuses a dead node). The relaunch must come back
 * from the newest checkpoint and pass the solver's acceptance verification.
 */
class NodeLossIT {
    private static final String SUCCESS = "Verification    =               SUCCESSFUL";
    private static final Pattern RESTORED = Pattern.compile("checkpoint restart: restored version (\\d+) from ([^,]+),");
    private static final String PREFIX = "lznl";
    private static final String SUBNET = "10.213.7";
    private static final int HOSTS = 3;

    private static NetnsHosts hosts;
    /** The job's host file: the first {@value #HOSTS} hosts; and the spare host's. */
    private static Path jobHosts;
    private static Path spareHosts;
    /** What the last crashed job printed. */
    private String lastOutput;

    @TempDir
    Path dir;

    @BeforeAll
    static void bringUpFourHosts() throws Exception {
        assumeTrue(NetnsHosts.available(), "network namespaces need root and ip netns");
        hosts = NetnsHosts.up(PREFIX, SUBNET, HOSTS + 1, 1);
        List<String> lines = Files.readAllLines(hosts.hostfile()).stream().filter(l -> !l.isBlank()).toList();
        jobHosts = hosts.hostsDirectory().resolve(PREFIX + ".job-hosts");
        spareHosts = hosts.hostsDirectory().resolve(PREFIX + ".spare-hosts");
        Files.write(jobHosts, lines.subList(0, HOSTS));
        Files.write(spareHosts, lines.subList(HOSTS, HOSTS + 1));
    }

    @AfterAll
    static void tearDownHosts() throws Exception {
        if (hosts != null) {
            Files.deleteIfExists(jobHosts);
            Files.deleteIfExists(spareHosts);
            NetnsHosts.down(PREFIX);
        }
    }

    private String[] args(String job, String... more) {
        List<String> args = new ArrayList<>(List.of(baseArgs(job)));
        args.addAll(1, List.of(more));
        if (!args.contains("--max-restarts")) {
            args.addAll(1, List.of("--max-restarts", "0"));
        }
        return args.toArray(String[]::new);
    }

    private String[] baseArgs(String job) {
        return new String[] {"run", "--np", Integer.toString(HOSTS), "--hosts", jobHosts.toString(), "--rsh-agent",
            NetnsHosts.script("netns-rsh").toString(), "--net", SUBNET + ".0/24", "--job", job,
            "--nvm-dir", dir.resolve("nvm").toString(), "--no-nvm-restart", "--ckpt-every", "200",
            "--ckpt-dir", hosts.hostsDirectory().resolve("%h").resolve("ramdisk").toString(),
            "--pfs-dir", dir.resolve("pfs").toString(), "--jvm-opt", "-Dlazarus.ckpt.pfs.every=1",
            "--state-dir", dir.resolve("state").toString(), "--timeout", "300", "solver.HEAT", "--class", "A",
            "--quiet"};
    }

    /**
     * A host that stops answering mid-run (class B here): the coordinator finds it lost, classifies a node loss, and
     * relaunches by itself with the spare in its place, which rebuilds the lost rank's L1 files from the other hosts'
     * data and parity. With the L2 work in the ranks and in node daemon processes (one is started on the spare).
     */
    @ParameterizedTest(name = "--node-daemon {0}")
    @ValueSource(strings = {"embedded", "process"})
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void aPoweredOffHostIsReplacedByTheSpareWhichRebuildsItsFilesFromL2(String daemon) throws Exception {
        String job = "heat-spare-" + daemon;
        String lost = address(2);
        String spare = address(HOSTS + 1);
        String[] args = args(job, "--node-daemon", daemon, "--max-restarts", "2", "--spares", spareHosts.toString());
        // Class B (4800 iterations, several seconds): the loss must fall well inside the run. Without L3, which the
        // other tests cover, the relaunch has L2 or the beginning.
        args[List.of(args).indexOf("--class") + 1] = "B";
        args[List.of(args).indexOf("--pfs-dir") + 1] = "off";
        RunningJob running = RunningJob.start(args, Map.of());
        long protectedVersion = awaitProtected(running, job, 600);
        // The ranks list what their nodes hold (and its parity) in their heartbeats every 250 ms: wait for the list
        // that names the protected version, as the coordinator will read it.
        Thread.sleep(1000);
        String out = powerOffHost2ThenVerified(running);
        assertTrue(out.contains("lazarus: node " + lost + " was lost: it does not answer (exit status 255: netns-rsh:"
                + " connect to host " + lost + " port 22: No route to host"), out);
        assertTrue(out.contains("lazarus: failure 1: node loss (node " + lost + " lost; "), out);
        // The coordinator weighed what the ranks' heartbeats said each host held on L1, rebuilt from L2 for the lost
        // one, and the ranks restored the version it chose.
        Matcher chosen = Pattern.compile("-> L2 v(\\d+) \\[cheapest]").matcher(out);
        assertTrue(chosen.find(), out);
        assertTrue(Long.parseLong(chosen.group(1)) >= protectedVersion, out);
        assertTrue(out.contains("checkpoint restart: restored version " + chosen.group(1) + " from L1 and L2,"
                + " resuming at iteration " + (Long.parseLong(chosen.group(1)) + 1) + " (the coordinator's choice)"),
                out);
        assertTrue(out.contains("lazarus: node " + lost + " is replaced by spare " + spare + " (host 2 of 3): its"
                + " ranks start there and rebuild their L1 files from L2; 0 spare(s) left"), out);
        // The spare's node rebuilt the chosen version while its ranks set up, before their restore asked for it.
        assertTrue(Pattern.compile("node " + PREFIX + (HOSTS + 1) + " rebuilt versions \\[[0-9, ]+] from its XOR set"
                + " in \\d+\\.\\d{3} s, started with the launch's set-up").matcher(out).find(), out);
        Matcher restored = restored(out);
        assertTrue(Long.parseLong(restored.group(1)) >= protectedVersion, out);
        assertEquals("L1 and L2", restored.group(2), out);
        // The spare's empty L1 lost the version; it is not corrupt, and stays on offer.
        assertFalse(out.contains("corrupt checkpoint"), out);
        if (daemon.equals("process")) {
            assertTrue(out.contains("lazarus: node daemon " + PREFIX + (HOSTS + 1) + " of job " + job + " ready at "),
                    "a daemon is started on the spare: " + out);
            // The powered-off host's daemon was a member of the job's cluster: the state lost nothing with it.
            assertTrue(out.contains("lazarus: the job's cluster holds all "), out);
        }
        // The job's state names the spare in the lost host's place.
        String recorded = Files.readString(dir.resolve("state").resolve(job).resolve("job").resolve("the.json"));
        assertTrue(recorded.contains("\"" + spare + "\"") && !recorded.contains("\"" + lost + "\""), recorded);
    }

    /**
     * A host powered off with no spare left: its rank runs on the two hosts left (the launcher puts two ranks on one),
     * whose L2 set is another, so the moved ranks restore from L3; the coordinator weighs no L2 rebuild, chooses L3,
     * and the run verifies.
     */
    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void withNoSpareLeftTheLostHostsRankRunsOnTheOthersFromL3() throws Exception {
        String job = "heat-survivors";
        String[] args = args(job, "--max-restarts", "2");
        args[List.of(args).indexOf("--class") + 1] = "B";
        RunningJob running = RunningJob.start(args, Map.of());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (onEveryRank(dir.resolve("pfs").resolve(job)) < 400) {
            assertTrue(running.process().isAlive() && System.nanoTime() < deadline,
                    "no version on L3 for every rank: " + running.output());
            Thread.sleep(20);
        }
        Thread.sleep(500); // the ranks' heartbeats list it
        String out = powerOffHost2ThenVerified(running);
        assertTrue(out.contains("lazarus: node " + address(2) + " does not answer and no spare host(s) are left: the"
                + " job runs on the 2 node(s) left, its ranks restoring from L3"), out);
        assertTrue(out.contains("lazarus: failure 1: node loss (node " + address(2) + " lost; "), out);
        assertFalse(Pattern.compile("failure 1: .*L2 v").matcher(out).find(), "no L2 rebuild is weighed: " + out);
        assertTrue(Pattern.compile("-> L3 v\\d+ \\[").matcher(out).find(), out);
        Matcher restored = restored(out);
        assertTrue(restored.group(2).contains("L3"), out);
        assertTrue(out.lines().anyMatch(l -> l.matches(" Total processes\\s+=\\s+3")), out);
        String recorded = Files.readString(dir.resolve("state").resolve(job).resolve("job").resolve("the.json"));
        assertFalse(recorded.contains("\"" + address(2) + "\""), recorded);
    }

    /**
     * Powers host 2 off while the job runs (on again after it), and checks the job then recovered by itself and
     * verified once.
     *
     * @return what the job printed
     */
    private static String powerOffHost2ThenVerified(RunningJob running) throws Exception {
        String out;
        try {
            assertTrue(running.process().isAlive(), "the job ended before the host was powered off");
            hosts.power(2, false);
            out = running.awaitEnd();
        } finally {
            hosts.power(2, true);
        }
        assertEquals(0, running.process().exitValue(), out);
        assertEquals(1, count(out, SUCCESS), out);
        return out;
    }

    /** @return the newest version on the PFS that every rank wrote, or -1 */
    private static long onEveryRank(Path pfsJob) throws IOException {
        if (!Files.isDirectory(pfsJob)) {
            return -1;
        }
        long newest = Long.MAX_VALUE;
        for (int rank = 0; rank < HOSTS; rank++) {
            newest = Math.min(newest, newestVersion(pfsJob, rank));
        }
        return newest;
    }

    /**
     * The node daemons are members of the job's Hazelcast cluster with the coordinator. The first host's daemon is
     * killed mid-run (SIGKILL; the host and its ranks stay): the members left hold every record the coordinator wrote,
     * and the run goes on without that node's L2 work and passes its verification.
     */
    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void killingTheFirstHostsNodeDaemonLosesNoneOfTheJobsState() throws Exception {
        String job = "heat-member";
        String[] args = args(job, "--node-daemon", "process");
        args[List.of(args).indexOf("--class") + 1] = "B";
        RunningJob running = RunningJob.start(args, Map.of());
        awaitProtected(running, job, 400);
        assertEquals(1, hosts.killProcesses(1, "NodeDaemonMain"), "host 1's node daemon");
        String out = running.awaitEnd();
        assertEquals(0, running.process().exitValue(), out);
        assertEquals(1, count(out, SUCCESS), out);
        for (int host = 1; host <= HOSTS; host++) {
            assertTrue(Pattern.compile("lazarus: node daemon " + PREFIX + host + " of job " + job + " ready at \\S+,"
                    + " a member of the job's cluster at " + Pattern.quote(address(host)) + ":\\d+").matcher(out)
                    .find(), out);
        }
        assertTrue(Pattern.compile("lazarus: the job's state is in Hazelcast \\(cluster lazarus-" + job
                + "-[0-9a-f]{16}, 4 member\\(s\\)").matcher(out).find(), out);
        assertTrue(out.contains("lazarus: the node daemon on " + address(1) + " ended (exit status 137) while the job"
                + " ran"), out);
        assertTrue(Pattern.compile("lazarus: the job's cluster holds all \\d+ records written through the coordinator"
                + " \\(3 member\\(s\\) at the end\\)").matcher(out).find(), out);
        // Each daemon wrote its own event through its member.
        try (Stream<Path> events = Files.list(dir.resolve("state").resolve(job).resolve("events"))) {
            List<String> names = events.map(p -> p.getFileName().toString()).toList();
            for (int host = 1; host <= HOSTS; host++) {
                String writer = "-daemon-" + PREFIX + host + "-";
                assertTrue(names.stream().anyMatch(n -> n.contains(writer)), names.toString());
            }
        }
    }

    /**
     * A rank stopped (SIGSTOP) on the second host: the node daemons, which watch their own ranks and compare the
     * ranks' last beats through the job's cluster, find the rank that stopped beating first hung after the hang
     * timeout; its node's daemon kills it, and the coordinator, told through the cluster, classifies a hang (not a
     * crash) and relaunches; the run verifies. The coordinator's own watch (twice as patient behind the daemons) does
     * not get to kill the job.
     */
    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void aStoppedRankIsFoundHungAndKilledByANodeDaemon() throws Exception {
        String job = "heat-hang";
        String[] args = args(job, "--node-daemon", "process", "--max-restarts", "2", "--hang-timeout", "5");
        args[List.of(args).indexOf("--class") + 1] = "B";
        RunningJob running = RunningJob.start(args, Map.of());
        String out;
        try {
            awaitProtected(running, job, 400);
            assertEquals(1, hosts.signalProcesses(2, "RankMain", "STOP"), "host 2's rank");
            out = running.awaitEnd();
        } finally {
            hosts.signalProcesses(2, "RankMain", "CONT");
        }
        assertEquals(0, running.process().exitValue(), out);
        assertEquals(1, count(out, SUCCESS), out);
        for (int host = 1; host <= HOSTS; host++) {
            assertTrue(out.contains("lazarus: node daemon " + PREFIX + host + " of job " + job + ": watching ranks ["
                    + (host - 1) + "] of launch 1 (hang timeout 5.0 s)"), out);
        }
        Matcher killed = Pattern.compile("lazarus: node daemon " + PREFIX + "(\\d) of job " + job + ": hang: (rank \\d"
                + " silent for \\d+ s in iteration \\d+ \\(hang timeout 5 s\\): the node daemon on " + PREFIX
                + "\\1 killed it \\(process \\d+\\))").matcher(out);
        assertTrue(killed.find(), out);
        String hang = killed.group(2);
        assertFalse(killed.find(), "one daemon kills one rank: " + out);
        assertTrue(out.contains("lazarus: failure 1: hang (" + hang + ")"), out);
        assertFalse(out.contains("lazarus: hang: "), "the coordinator's own watch did not fire: " + out);
        assertTrue(out.contains("1 failures {hang=1}"), out);
    }

    /** @return host {@code i}'s address, as the host files name it */
    private static String address(int i) throws IOException {
        return Files.readString(hosts.hostsDirectory().resolve(PREFIX + i).resolve("addr")).strip();
    }

    private static int count(String text, String what) {
        return text.split(Pattern.quote(what), -1).length - 1;
    }

    /**
     * In both places the nodes' L2 work can run: the node's lowest rank, and a node daemon process per host, which the
     * crash kills with its host and the relaunch starts again.
     */
    @ParameterizedTest(name = "--node-daemon {0}")
    @ValueSource(strings = {"embedded", "process"})
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void aLostHostIsRebuiltFromItsXorSetWhileThePfsIsFull(String daemon) throws Exception {
        Path pfs = dir.resolve("pfs");
        Files.createDirectories(pfs);
        run("mount", "-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", pfs.toString());
        String crashed;
        long protectedVersion;
        String job = "heat-l2-" + daemon;
        String[] args = args(job, "--node-daemon", daemon);
        try {
            protectedVersion = crashHostsOnceProtected(job, args, 600, 2);
            crashed = lastOutput;
        } finally {
            run("umount", pfs.toString());
        }
        // The full PFS was reported, and L1 and L2 went on regardless.
        assertTrue(crashed.contains("did not reach L3") && crashed.contains("No space left on device"), crashed);
        LazarusProcess.Result relaunch = LazarusProcess.run(Duration.ofMinutes(5), args);
        String out = relaunch.output();
        assertEquals(0, relaunch.exitStatus(), out);
        assertTrue(out.contains(SUCCESS), out);
        assertTrue(out.contains("L2 on: node " + PREFIX + "1 is member 0 of XOR set 0 (3 nodes)"), out);
        if (daemon.equals("process")) {
            for (int host = 1; host <= HOSTS; host++) {
                assertTrue(out.contains("lazarus: node daemon " + PREFIX + host + " of job " + job + " ready at "),
                        out);
                assertTrue(out.contains("lazarus: node daemon " + PREFIX + host + " of job " + job + ": stopped"),
                        "each daemon stops with the job: " + out);
            }
            assertTrue(out.contains("in its node daemon"), out);
        }
        assertEquals(daemon.equals("process"), out.contains("rank 0: L3 drains run in the node daemons"), out);
        assertTrue(out.contains("node " + PREFIX + "2 rebuilt versions"), out);
        // Run again by hand, with no version named: the rebuild waits for the restore.
        assertFalse(out.contains("started with the launch's set-up"), out);
        // The restart waited for the rank files only; the host's parity came back from its drain thread.
        assertTrue(out.contains("node " + PREFIX + "2 encoded its L2 parity of version"), out);
        Matcher restored = restored(out);
        assertTrue(Long.parseLong(restored.group(1)) >= protectedVersion, out);
        assertEquals("L1 and L2", restored.group(2), out);
        for (int host = 1; host <= HOSTS; host++) {
            assertFalse(Files.exists(hosts.ramdisk(host).resolve(job).resolve(versionName(protectedVersion))),
                    "a finished run releases host " + host + "'s L1 and L2 files");
        }
    }

    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void twoLostHostsOfOneSetFallBackToThePfsAndADamagedCopyToAnOlderVersion() throws Exception {
        crashHostsOnceProtected("heat-l3", args("heat-l3"), 600, 1, 2);
        // Rank 0's newest copy on the PFS is truncated: that version is skipped, and an older one restored.
        long damaged = newestVersion(dir.resolve("pfs").resolve("heat-l3"), 0);
        Path pfsCopy = dir.resolve("pfs").resolve("heat-l3").resolve(versionName(damaged)).resolve("rank-0.data");
        try (FileChannel data = FileChannel.open(pfsCopy, StandardOpenOption.WRITE)) {
            data.truncate(data.size() / 2);
        }
        LazarusProcess.Result relaunch = LazarusProcess.run(Duration.ofMinutes(5), args("heat-l3"));
        String out = relaunch.output();
        assertEquals(0, relaunch.exitStatus(), out);
        assertTrue(out.contains(SUCCESS), out);
        assertTrue(out.contains("XOR set 0 lost 2 nodes [" + PREFIX + "1, " + PREFIX + "2]"), out);
        assertTrue(out.contains("rank 0: cannot restore version " + damaged), out);
        Matcher restored = restored(out);
        assertTrue(Long.parseLong(restored.group(1)) < damaged, out);
        assertTrue(restored.group(2).contains("L3"), out);
        // The truncated copy is corrupt; the two hosts' lost L1 files are not.
        assertTrue(out.contains("lazarus: corrupt checkpoint: rank 0 found version " + damaged + " on L3 corrupt"),
                out);
        assertEquals(1, count(out, "corrupt checkpoint:"), out);
    }

    /**
     * Starts the job, waits until a version of at least {@code version} is on every host's L1 with its parity (L2),
     * then crashes the given hosts and waits for the job to fail.
     *
     * @return the newest version every host held with parity at the crash
     */
    private long crashHostsOnceProtected(String job, String[] args, long version, int... crashed) throws Exception {
        RunningJob running = RunningJob.start(args, Map.of());
        long newest = awaitProtected(running, job, version);
        for (int host : crashed) {
            hosts.kill(host);
        }
        String text = running.awaitEnd();
        lastOutput = text;
        assertTrue(running.process().exitValue() != 0, "a job that lost a host must fail: " + text);
        return newest;
    }

    /** @return the newest version, at least {@code version}, that every host holds on L1 with its parity (L2) */
    private static long awaitProtected(RunningJob running, String job, long version) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        long newest = -1;
        while (newest < version) {
            assertTrue(running.process().isAlive() && System.nanoTime() < deadline,
                    "no version " + version + " with parity on every host: " + running.output());
            newest = Long.MAX_VALUE;
            for (int host = 1; host <= HOSTS; host++) {
                newest = Math.min(newest, newestProtected(hosts.ramdisk(host).resolve(job), host - 1));
            }
            Thread.sleep(20);
        }
        return newest;
    }

    /** @return the newest version directory with the rank's manifest, or -1 */
    private static long newestVersion(Path jobDirectory, int rank) throws IOException {
        try (Stream<Path> versions = Files.list(jobDirectory)) {
            return versions.filter(v -> Files.exists(v.resolve("rank-" + rank + ".manifest")))
                    .mapToLong(v -> Long.parseLong(v.getFileName().toString().substring(1))).max().orElse(-1);
        }
    }

    /** @return the newest version directory with the rank's manifest and the host's parity manifest, or -1 */
    private static long newestProtected(Path jobDirectory, int rank) throws IOException {
        if (!Files.isDirectory(jobDirectory)) {
            return -1;
        }
        try (Stream<Path> versions = Files.list(jobDirectory)) {
            return versions.filter(v -> v.getFileName().toString().matches("v\\d{12}")
                            && Files.exists(v.resolve("rank-" + rank + ".manifest"))
                            && Files.exists(v.resolve("l2-parity.manifest")))
                    .mapToLong(v -> Long.parseLong(v.getFileName().toString().substring(1))).max().orElse(-1);
        }
    }

    /** Runs a command such as mount(8); fails the test if it fails. */
    private static void run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0,
                String.join(" ", command) + ": " + text);
    }

    private static Matcher restored(String output) {
        Matcher m = RESTORED.matcher(output);
        assertTrue(m.find(), output);
        return m;
    }

    private static String versionName(long version) {
        return String.format("v%012d", version);
    }
}
