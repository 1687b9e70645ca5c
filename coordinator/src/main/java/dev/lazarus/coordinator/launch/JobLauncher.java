package dev.lazarus.coordinator.launch;

import dev.lazarus.coordinator.state.Ipv4Cidr;
import dev.lazarus.daemon.process.NodeDaemonMain;
import dev.lazarus.easycrash.RecomputableApplication;
import dev.lazarus.mpi.launch.ApplicationCatalog;
import dev.lazarus.mpi.launch.ExitStatusFiles;
import dev.lazarus.mpi.launch.HaltNotice;
import dev.lazarus.mpi.launch.HangWatch;
import dev.lazarus.mpi.launch.HeartbeatFile.HeartbeatSnapshot;
import dev.lazarus.mpi.launch.HeartbeatFile;
import dev.lazarus.mpi.launch.LaunchDirective;
import dev.lazarus.mpi.launch.RankMain;
import dev.lazarus.store.files.SecureFiles;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * Launches an MPI job of {@link RankMain} ranks, once, and says how that launch ended ({@link LaunchOutcome}) with one
 * exit status for it: the launcher's own status if it failed, else the largest status the ranks recorded, else 1 if a
 * rank recorded none (it died). Relaunching is the coordinator's ({@code coordinator.job}).
 *
 * <p>{@link #plan} validates everything a user can get wrong before any process starts, and throws
 * {@link IllegalArgumentException} with a one-line message for it.
 */
public final class JobLauncher {
    /** Exit status when {@code --timeout} kills the job, as {@code timeout(1)} uses. */
    public static final int TIMED_OUT = 124;
    /** How often a running job's heartbeats are read. */
    public static final java.time.Duration WATCH_PERIOD = java.time.Duration.ofMillis(250);
    /** How long the job's processes may take to end by themselves once the launcher has returned. */
    private static final java.time.Duration EXIT_GRACE = java.time.Duration.ofSeconds(3);
    /**
     * The module access Hazelcast documents for Java 9 and later, and the sun.misc.Unsafe access its shaded JCTools
     * uses (else JDK 25 warns): the ./lazarus script gives the coordinator the same.
     */
    private static final List<String> HAZELCAST_MODULE_ACCESS = List.of("--sun-misc-unsafe-memory-access=allow",
            "--add-modules", "java.se", "--add-exports",
            "java.base/jdk.internal.ref=ALL-UNNAMED", "--add-opens", "java.base/java.lang=ALL-UNNAMED", "--add-opens",
            "java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens", "java.management/sun.management=ALL-UNNAMED",
            "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED");

    private final InstallLayout layout;
    private final Path javaHome;
    private final Map<String, String> environment;
    private final PrintStream out;
    private final PrintStream err;

    /** As {@link #JobLauncher(InstallLayout, Path, Map, PrintStream, PrintStream)}, the job's output to System.out. */
    public JobLauncher(InstallLayout layout, Path javaHome, Map<String, String> environment, PrintStream err) {
        this(layout, javaHome, environment, System.out, err);
    }

    /**
     * @param layout      where the built jars are
     * @param javaHome    the JDK 25 the ranks run on
     * @param environment the environment to read settings from ({@code PATH}, {@code MPJ_HOME},
     *                    {@code LAZARUS_OMPI_LIB})
     * @param out         where the standard output of MPJ's ranks' JVM goes (mpirun's is inherited)
     * @param err         where the launcher's own messages and the ranks' standard error go
     */
    public JobLauncher(InstallLayout layout, Path javaHome, Map<String, String> environment, PrintStream out,
                       PrintStream err) {
        this.layout = layout;
        this.javaHome = javaHome;
        this.environment = Map.copyOf(environment);
        this.out = out;
        this.err = err;
    }

    /** Validates {@code request} and builds the command that runs it. */
    public LaunchPlan plan(LaunchRequest request) {
        if (request.ranks() < 1) {
            throw new IllegalArgumentException("--np=" + request.ranks() + " must be at least 1");
        }
        if (request.hostsFile() != null) {
            HostsFile.hosts(request.hostsFile());
        }
        if (request.network() != null) {
            Ipv4Cidr.check(request.network());
        }
        if (request.rshAgent() != null) {
            checkRshAgent(request.rshAgent());
        }
        if (request.hostsFile() != null && request.backend() != Backend.OPENMPI) {
            throw new IllegalArgumentException("--hosts needs --backend openmpi (MPJ Express runs multicore on one"
                    + " node)");
        }
        for (Path entry : request.extraClasspath()) {
            if (!Files.exists(entry)) {
                throw new IllegalArgumentException("class path entry " + entry + " does not exist");
            }
        }
        checkBackendInstalled(request.backend());
        List<Path> bundled = layout.moduleClasspath(layout.applicationsModule());
        List<Path> classpath = InstallLayout.union(List.of(request.extraClasspath(), bundled,
                layout.moduleClasspath(layout.backendModule(request.backend()))));
        boolean ranksBeat = checkApplication(request.application(), classpath);
        List<String> flags = new ArrayList<>(RANK_JVM_FLAGS);
        flags.addAll(jitFlags(request, Runtime.getRuntime().availableProcessors()));
        RankJvmCheck.check(javaHome.resolve("bin/java"), flags, request.jvmOptions());
        LaunchPlan plan = request.backend() == Backend.OPENMPI
                ? openMpiPlan(request, InstallLayout.classPath(classpath))
                : mpjPlan(request, MpjMulticore.split(classpath, bundled));
        return plan.withRanksBeat(ranksBeat);
    }

    /**
     * Runs one launch with no directive and the derived hang timeout, and returns its exit status: the job as one
     * launch, without the coordinator's relaunches.
     */
    public int run(LaunchPlan plan) throws IOException, InterruptedException {
        return launch(plan, LaunchDirective.none(), new HangWatch(null), HaltCheck.NEVER).status();
    }

    /**
     * Runs one launch of a planned job to its end and says how it ended. The ranks' output goes to this process's
     * standard output and error. {@code directive} is handed to the ranks through the launch's status directory;
     * while the job runs, its ranks' heartbeats are read every {@link #WATCH_PERIOD} and a hung job is killed, and
     * {@code halts} is asked whether the job is to halt.
     */
    public LaunchOutcome launch(LaunchPlan plan, LaunchDirective directive, HangWatch hangs, HaltCheck halts)
            throws IOException, InterruptedException {
        return launch(plan, directive, hangs, halts, LaunchWatcher.NONE);
    }

    /**
     * As {@link #launch(LaunchPlan, LaunchDirective, HangWatch, HaltCheck)}, showing {@code watcher} every heartbeat
     * read.
     */
    public LaunchOutcome launch(LaunchPlan plan, LaunchDirective directive, HangWatch hangs, HaltCheck halts,
                                LaunchWatcher watcher) throws IOException, InterruptedException {
        long started = System.nanoTime();
        long launchedMillis = System.currentTimeMillis(); // a rank without a heartbeat is judged from here
        int ranks = plan.request().ranks();
        Path statusDir = statusDirectory(plan.request().statusRoot());
        try {
            LaunchDirective.write(statusDir, directive);
            watcher.started(statusDir);
            ProcessBuilder builder = new ProcessBuilder(endsWithThisProcess(plan.command())).inheritIO();
            boolean openMpi = plan.request().backend() == Backend.OPENMPI;
            // Read apart: Open MPI's own text, and the rank JVMs' start-up notice (either backend). MPJ's output goes
            // to `out`.
            builder.redirectError(ProcessBuilder.Redirect.PIPE);
            if (!openMpi) {
                builder.redirectOutput(ProcessBuilder.Redirect.PIPE);
            }
            builder.environment().putAll(plan.environment());
            int launcherStatus;
            LauncherErrorStream launcherErr = null;
            LauncherOutputStream launcherOut = null;
            String hang = null;
            HaltCheck.Halt halt = HaltCheck.Halt.NONE;
            // The status directory is unique to this launch, so its variable also marks the launch's processes.
            try (JobProcessTree job = JobProcessTree.start(builder, ExitStatusFiles.ENV, statusDir.toString())) {
                Process process = job.launcher();
                launcherErr = LauncherErrorStream.start(process.getErrorStream(), err,
                        Path.of(System.getProperty("java.io.tmpdir")), openMpi);
                if (!openMpi) {
                    launcherOut = LauncherOutputStream.start(process.getInputStream(), out);
                }
                long deadline = plan.request().timeout() == null ? Long.MAX_VALUE
                        : started + plan.request().timeout().toNanos();
                while (!process.waitFor(WATCH_PERIOD.toMillis(), TimeUnit.MILLISECONDS)) {
                    List<Optional<HeartbeatSnapshot>> beats = HeartbeatFile.readAll(statusDir, ranks);
                    watcher.watched(beats);
                    hang = hangs.hung(beats, System.currentTimeMillis(), plan.ranksBeat() ? launchedMillis : 0)
                            .orElse(null);
                    if (halt != HaltCheck.Halt.NOW) {
                        halt = halts.due();
                        if (halt == HaltCheck.Halt.AFTER_CHECKPOINT) {
                            HaltNotice.post(statusDir);
                        }
                    }
                    if (hang != null || halt == HaltCheck.Halt.NOW || System.nanoTime() > deadline) {
                        break;
                    }
                }
                if (process.isAlive()) {
                    job.killAll();
                    if (halt == HaltCheck.Halt.NOW) {
                        err.println("lazarus: halted now (lazarus halt --now): the job was killed; NVM and the"
                                + " checkpoints keep its state, and the same command resumes it");
                        return outcome(LaunchOutcome.Kind.HALTED, RankMain.HALTED, statusDir, ranks, null, started);
                    }
                    if (hang != null) {
                        err.println("lazarus: hang: " + hang + "; the job was killed");
                        return outcome(LaunchOutcome.Kind.HUNG, 1, statusDir, ranks, hang, started);
                    }
                    err.println("lazarus: job exceeded --timeout=" + plan.request().timeout().toSeconds()
                            + "s and was killed" + openMpiSaid(launcherErr, "; "));
                    return outcome(LaunchOutcome.Kind.TIMED_OUT, TIMED_OUT, statusDir, ranks, null, started);
                }
                launcherStatus = process.exitValue();
                int leftBehind = job.killAllAfter(EXIT_GRACE);
                if (leftBehind > 0) {
                    err.println("lazarus: killed " + leftBehind + " process(es) of the job that outlived its launcher"
                            + " (exit status " + launcherStatus + ")");
                }
            } // closing also kills the job when this thread is interrupted or fails while it runs
            if (launcherOut != null) {
                launcherOut.awaitEnd();
            }
            for (int rank = 0; rank < ranks; rank++) {
                int status = ExitStatusFiles.read(statusDir, rank).orElse(0);
                if (status == RankMain.HALTED) {
                    return outcome(LaunchOutcome.Kind.HALTED, RankMain.HALTED, statusDir, ranks, null, started);
                }
                if (status == RankMain.RELAUNCH) {
                    return outcome(LaunchOutcome.Kind.NVM_ATTEMPT_FAILED, RankMain.RELAUNCH, statusDir, ranks, null,
                            started);
                }
            }
            return jobOutcome(launcherStatus, statusDir, ranks, openMpiSaid(launcherErr, ""), started);
        } finally {
            SecureFiles.deleteTree(statusDir);
        }
    }

    /**
     * Makes a launch's status directory (0700, a fresh name): in {@code root}, a directory every host of the job sees,
     * made with its missing parents (0700), or in this host's temporary directory.
     */
    private static Path statusDirectory(Path root) throws IOException {
        FileAttribute<?> ownerOnly = PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
        if (root == null) {
            return Files.createTempDirectory("lazarus-job-", ownerOnly);
        }
        return Files.createTempDirectory(SecureFiles.createOwnDirectory(root), "launch-", ownerOnly);
    }

    /** Every rank's heartbeat now; a rank whose file cannot be read counts as having none. */
    private LaunchOutcome outcome(LaunchOutcome.Kind kind, int status, Path statusDir, int ranks, String hang,
                                  long started) {
        List<Integer> silent = IntStream.range(0, ranks)
                .filter(rank -> ExitStatusFiles.read(statusDir, rank).isEmpty()).boxed().toList();
        return new LaunchOutcome(kind, status, silent, hang, HeartbeatFile.readAll(statusDir, ranks),
                (System.nanoTime() - started) * 1e-9);
    }

    /**
     * Runs {@code command} under {@code setpriv --pdeathsig KILL} where util-linux has it, so that the job's launcher
     * is killed when this process dies (even by SIGKILL); the ranks end with it (mpirun's ranks lose their daemon,
     * MPJ's rank JVM watches its parent: {@code ParentWatch}). Without setpriv the job outlives a killed Lazarus.
     */
    private List<String> endsWithThisProcess(List<String> command) {
        Path setpriv = findOnPath("setpriv");
        if (setpriv == null) {
            return command;
        }
        List<String> wrapped = new ArrayList<>(List.of(setpriv.toString(), "--pdeathsig", "KILL", "--"));
        wrapped.addAll(command);
        return wrapped;
    }

    /** @return {@code separator} and the one-line summary of Open MPI's own text, or "" when it printed none */
    private static String openMpiSaid(LauncherErrorStream launcherErr, String separator) throws InterruptedException {
        if (launcherErr == null) {
            return "";
        }
        return launcherErr.summary().map(s -> separator + s).orElse("");
    }

    /**
     * @param openMpiSaid what Open MPI's own text meant, in one line, or "" (see {@link LauncherErrorStream})
     */
    private LaunchOutcome jobOutcome(int launcherStatus, Path statusDir, int ranks, String openMpiSaid,
                                     long started) {
        int worst = 0;
        List<Integer> silent = new ArrayList<>();
        for (int rank = 0; rank < ranks; rank++) {
            OptionalInt status = ExitStatusFiles.read(statusDir, rank);
            if (status.isEmpty()) {
                silent.add(rank);
            } else {
                worst = Math.max(worst, status.getAsInt());
            }
        }
        if (silent.isEmpty()) {
            if (!openMpiSaid.isEmpty()) {
                err.println("lazarus: Open MPI: " + openMpiSaid);
            }
            int status = launcherStatus != 0 && worst == 0 ? launcherStatus : worst;
            return outcome(status == 0 ? LaunchOutcome.Kind.SUCCEEDED : LaunchOutcome.Kind.FAILED, status, statusDir,
                    ranks, null, started);
        }
        boolean noneStarted = launcherStatus != 0 && IntStream.range(0, ranks)
                .noneMatch(rank -> Files.exists(ExitStatusFiles.startedFile(statusDir, rank)));
        if (noneStarted) {
            err.println("lazarus: the job did not start: " + (openMpiSaid.isEmpty()
                    ? "the launcher failed with exit status " + launcherStatus
                            + " before any rank ran (check --hosts, --rsh-agent and --net)"
                    : openMpiSaid + "; launcher exit status " + launcherStatus));
            return outcome(LaunchOutcome.Kind.NOT_STARTED, launcherStatus, statusDir, ranks, null, started);
        }
        err.println("lazarus: ranks " + silent + " recorded no exit status (killed or crashed); launcher exit status "
                + launcherStatus + (openMpiSaid.isEmpty() ? "" : "; Open MPI: " + openMpiSaid));
        // A rank that recorded a failure of its own (an exception, bad input) took the others down with it: that is
        // the application failing, which a relaunch repeats, not a crash.
        return outcome(worst > 0 ? LaunchOutcome.Kind.FAILED : LaunchOutcome.Kind.CRASHED,
                launcherStatus != 0 ? launcherStatus : 1, statusDir, ranks, null, started);
    }

    /**
     * When a rank dies, Open MPI ends the others with SIGTERM and, by default, SIGKILL one second later
     * ({@code odls_base_sigkill_timeout}). A rank JVM blocked in MPI does not end on SIGTERM, so every failure cost a
     * second before the launcher returned (1.40 s from a rank's SIGKILL to mpirun's exit, 4 ranks of CG class B; 0.07
     * s with no wait). A rank has nothing to do on SIGTERM: what it keeps across a crash is in NVM and the
     * checkpoints, which a SIGKILL leaves as any crash does.
     */
    static final List<String> ABORT_AT_ONCE = List.of("--mca", "odls_base_sigkill_timeout", "0");

    /** What starts a rank's JVM under mpirun (see {@link #openMpiPlan}); coreutils', on every Debian system. */
    static final String ENV_PROGRAM = "/usr/bin/env";

    private LaunchPlan openMpiPlan(LaunchRequest request, String classpath) {
        List<String> command = new ArrayList<>(List.of(executable("mpirun")));
        if (isRoot()) {
            command.add("--allow-run-as-root");
        }
        // -q: the ranks' statuses are reported by this launcher; mpirun's multi-line banners would only repeat them.
        command.addAll(List.of("-q", "--oversubscribe", "--mca", "btl",
                request.hostsFile() == null ? "self,vader" : "self,vader,tcp", "-x", ExitStatusFiles.ENV));
        command.addAll(ABORT_AT_ONCE);
        int cores = Runtime.getRuntime().availableProcessors();
        if (request.hostsFile() != null) {
            command.addAll(List.of("--hostfile", request.hostsFile().toAbsolutePath().toString()));
        } else {
            int coresPerRank = coresPerRank(request.ranks(), cores);
            if (coresPerRank > 1) {
                command.addAll(List.of("--map-by", "slot:PE=" + coresPerRank));
            }
        }
        if (request.rshAgent() != null) {
            command.addAll(List.of("--mca", "plm_rsh_agent", absoluteAgent(request.rshAgent())));
        }
        if (request.network() != null) {
            command.addAll(List.of("--mca", "oob_tcp_if_include", request.network(),
                    "--mca", "btl_tcp_if_include", request.network()));
        }
        command.addAll(List.of("-np", Integer.toString(request.ranks())));
        // Through env: Open MPI rewrites the command line of an executable named java, putting the working directory
        // first on its class path (so any class file there would shadow ours) and editing the first argument that
        // contains "cp". Started by env, a rank's JVM gets exactly this command line.
        command.addAll(List.of(ENV_PROGRAM, javaHome.resolve("bin/java").toString()));
        command.addAll(rankJvmOptions(request, "-Djava.library.path=" + openMpiLibDir(), cores));
        command.addAll(List.of("-cp", classpath, RankMain.class.getName(), request.application()));
        command.addAll(request.arguments());
        return new LaunchPlan(request, command, Map.of());
    }

    /**
     * The command of one node daemon process of a planned job ({@code --node-daemon process}): this JDK, the node
     * daemon module's class path (Hazelcast included, which the ranks' lacks), the ranks' {@code -D} settings (so it
     * resolves the node's name, L1 and run directory as the node's ranks do), a small heap, the module access
     * Hazelcast asks for, and {@code NodeDaemonMain --job JOB --secret FILE} followed by {@code daemonArguments} (how
     * it joins the job's cluster, when it does). Run on a host through {@link NodeDaemonProcesses}.
     */
    public List<String> nodeDaemonCommand(LaunchPlan plan, String job, Path secret, List<String> daemonArguments) {
        List<String> command = new ArrayList<>(List.of(javaHome.resolve("bin/java").toString(), "-Xmx256m",
                "-XX:+UseSerialGC"));
        command.addAll(HAZELCAST_MODULE_ACCESS);
        plan.request().jvmOptions().stream().filter(o -> o.startsWith("-Dlazarus.")).forEach(command::add);
        String classpath = InstallLayout.classPath(layout.moduleClasspath(layout.nodeDaemonModule()));
        command.addAll(List.of("-cp", classpath, NodeDaemonMain.class.getName(), "--job", job, "--secret",
                secret.toAbsolutePath().toString()));
        command.addAll(daemonArguments);
        return command;
    }

    /**
     * How many cores each local Open MPI rank is bound to: all the cores shared out when there are more than ranks,
     * else 1 (Open MPI's own binding, one core per rank). Open MPI binds a rank to one core by default, and a Java
     * rank's JIT compiler and GC threads then run on the rank's core while the others idle: CG class A on one rank
     * of two cores ran 1.47 times as long bound to one core as bound to both (median of 10 runs each).
     */
    static int coresPerRank(int ranks, int cores) {
        return ranks < cores ? cores / ranks : 1;
    }

    /**
     * Whether the local ranks leave no core free, in which case their JVMs compile with C2 alone
     * ({@link #C2_ONLY}): the JIT's threads then share the ranks' cores, and tiered compilation (C1 with profiling
     * first, C2 later) spends them on code it throws away while the kernels run in slow profiled code. Class A on two
     * ranks of two cores, medians of five alternating runs, C2 alone against tiered: CG 0.31 against 0.46 s with Open
     * MPI and 0.50 against 0.68 s with MPJ, MG 0.47 against 0.64 s and 0.54 against 0.73 s, IS 0.19 against 0.18 s and
     * 0.40 against 0.35 s; FT and EP alike (MPJ's FT, once its staging arrays were kept: 1.64 to 1.96 s against
     * 1.71 to 2.13 s tiered, four runs each). With a core free (one rank of two) tiered compilation was as fast and
     * the JVM started 0.4 s sooner.
     */
    static boolean everyCoreBusy(int ranks, int cores) {
        return ranks >= cores;
    }

    /** The JIT setting of {@link #everyCoreBusy}; a {@code --jvm-opt -XX:+TieredCompilation} comes later and wins. */
    static final String C2_ONLY = "-XX:-TieredCompilation";

    /**
     * C2 compiler threads for MPJ's one JVM of {@code ranks} rank threads when it compiles with C2 alone: one per
     * rank, up to the cores, as each Open MPI rank's JVM has its own. C2 alone gets one thread on two cores, which
     * compiles for every rank thread, and each rank's own copy of an application from {@code --classpath}
     * ({@link MpjMulticore}). Class A on two ranks, medians with one thread against two: while every rank had its own
     * copy of every class (five alternating runs), IS 0.15 against 0.14 s, FT 1.52 against 1.47 s, MG 0.67 against
     * 0.65 s, CG 0.41 either way; with the bundled kernels shared (four), IS 719 against 773 Mop/s, FT 1.49 against
     * 1.45 s, MG and CG alike. {@code 0} means the JVM's default.
     */
    static int mpjCompilerThreads(int ranks, int cores) {
        return everyCoreBusy(ranks, cores) && ranks > 1 ? Math.min(ranks, cores) : 0;
    }

    private LaunchPlan mpjPlan(LaunchRequest request, MpjMulticore.ClassPaths classPaths) {
        Path mpjHome = mpjHome();
        List<String> main = new ArrayList<>(List.of(RankMain.class.getName(), request.application()));
        main.addAll(request.arguments());
        List<String> command = MpjMulticore.command(javaHome.resolve("bin/java"), mpjHome, classPaths,
                rankJvmOptions(request, null, Runtime.getRuntime().availableProcessors()), request.ranks(), main);
        // MPJ's starter finds mpi.jar and mpjdev.jar for the ranks' class loaders through MPJ_HOME.
        return new LaunchPlan(request, command, Map.of("MPJ_HOME", mpjHome.toString()));
    }

    /**
     * What every rank JVM needs: FFM native access (libpmem, Open MPI), the Vector API (the persistent heap's
     * vectorized bulk operations; its start-up notice is {@link RankJvmNotice}), the module openings Chronicle
     * Map (the EasyCrash object directory) needs on Java 25, and the JDK's cache-line write-back. The parent POM gives
     * test JVMs the same list.
     */
    public static final List<String> RANK_JVM_FLAGS = List.of("--enable-native-access=ALL-UNNAMED",
            "--add-modules=jdk.incubator.vector",
            "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED", "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
            // The JDK's cache-line write-back, for the heap's bookmark (easycrash.persist.JdkWriteBack).
            "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
            "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--sun-misc-unsafe-memory-access=allow", "-Dchronicle.analytics.disable=true",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
            // Recovering a map after a crash is exactly what the object directory is for; Chronicle warns every time.
            "-Dorg.slf4j.simpleLogger.log.net.openhft.chronicle.map.ChronicleMapBuilder=error");

    /**
     * The JIT options the launcher gives the request's rank JVMs on {@code cores} cores: {@link #C2_ONLY} when the
     * ranks leave no core free (Open MPI: without a host file, whose hosts may have other core counts), and for MPJ
     * its compiler threads ({@link #mpjCompilerThreads}). The user's options are checked together with them, since
     * some are valid only so (a single compiler thread is, with C2 alone).
     */
    static List<String> jitFlags(LaunchRequest request, int cores) {
        List<String> flags = new ArrayList<>();
        boolean mpj = request.backend() == Backend.MPJ;
        if ((mpj || request.hostsFile() == null) && everyCoreBusy(request.ranks(), cores)) {
            flags.add(C2_ONLY);
        }
        int compilerThreads = mpj ? mpjCompilerThreads(request.ranks(), cores) : 0;
        if (compilerThreads > 0) {
            flags.add("-XX:CICompilerCount=" + compilerThreads);
        }
        return flags;
    }

    private static List<String> rankJvmOptions(LaunchRequest request, String libraryPath, int cores) {
        List<String> options = new ArrayList<>(RANK_JVM_FLAGS);
        options.addAll(jitFlags(request, cores));
        if (libraryPath != null) {
            options.add(libraryPath);
        }
        options.addAll(request.jvmOptions());
        return options;
    }

    private void checkBackendInstalled(Backend backend) {
        switch (backend) {
            case OPENMPI -> {
                if (findOnPath("mpirun") == null) {
                    throw new IllegalArgumentException("backend openmpi is not installed: mpirun is not on PATH"
                            + " (scripts/setup installs openmpi-bin)");
                }
                if (!Files.exists(openMpiLibDir().resolve("libmpi_java.so"))) {
                    throw new IllegalArgumentException("backend openmpi is not installed: no libmpi_java.so in "
                            + openMpiLibDir() + " (scripts/setup installs libopenmpi-dev)");
                }
            }
            case MPJ -> {
                MpjMulticore.checkInstalled(mpjHome());
            }
        }
        if (layout.moduleClasspath(layout.backendModule(backend)).isEmpty()) {
            throw new IllegalArgumentException("backend " + backend + " is not built");
        }
    }

    /**
     * Open MPI runs the agent (a command, perhaps with arguments; {@code :} separates alternatives it tries in turn)
     * to start its daemons on other hosts; one that is not there fails the job with Open MPI's text and status.
     */
    private void checkRshAgent(String agent) {
        for (String alternative : agent.split(":")) {
            String program = alternative.strip().split("\\s+")[0];
            if (!program.isEmpty() && (program.contains("/") ? Files.isRegularFile(Path.of(program))
                    && Files.isExecutable(Path.of(program)) : findOnPath(program) != null)) {
                return;
            }
        }
        throw new IllegalArgumentException("--rsh-agent=" + agent + ": no executable program"
                + (agent.contains(":") ? " among its alternatives" : "") + " (a path, or a command on PATH)");
    }

    /**
     * Open MPI's daemons look a relative agent up on their PATH, not in this directory, and fail with only their own
     * text ("FORCE-TERMINATE AT Not found"): a program given as a relative path is made absolute here.
     */
    static String absoluteAgent(String agent) {
        List<String> alternatives = new ArrayList<>();
        for (String alternative : agent.split(":", -1)) {
            String stripped = alternative.strip();
            int end = stripped.indexOf(' ') < 0 ? stripped.length() : stripped.indexOf(' ');
            String program = stripped.substring(0, end);
            alternatives.add(program.contains("/") && !program.startsWith("/")
                    ? Path.of(program).toAbsolutePath().normalize() + stripped.substring(end) : alternative);
        }
        return String.join(":", alternatives);
    }

    /**
     * @return whether the application runs through EasyCrash's {@code RecomputingRun}, whose ranks write heartbeats
     * @throws IllegalArgumentException if the ranks' class path has no such application
     */
    private boolean checkApplication(String application, List<Path> classpath) {
        URL[] urls = classpath.stream().map(JobLauncher::url).toArray(URL[]::new);
        try (URLClassLoader loader = new URLClassLoader(urls, RankMain.class.getClassLoader())) {
            // The loader asks its parent first, so the interface is this JVM's own.
            return new ApplicationCatalog(loader).resolve(application) instanceof RecomputableApplication;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static URL url(Path path) {
        try {
            return path.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("bad class path entry " + path, e);
        }
    }

    private Path openMpiLibDir() {
        return Path.of(environment.getOrDefault("LAZARUS_OMPI_LIB", "/usr/lib/x86_64-linux-gnu"));
    }

    private Path mpjHome() {
        String home = environment.get("MPJ_HOME");
        if (home == null || home.isBlank()) {
            throw new IllegalArgumentException("backend mpj is not installed: MPJ_HOME is not set"
                    + " (./lazarus sets it from scripts/setup)");
        }
        return Path.of(home);
    }

    private String executable(String name) {
        Path found = findOnPath(name);
        return found == null ? name : found.toString();
    }

    private Path findOnPath(String name) {
        for (String dir : environment.getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                return Path.of(dir, name);
            }
        }
        return null;
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }
}
