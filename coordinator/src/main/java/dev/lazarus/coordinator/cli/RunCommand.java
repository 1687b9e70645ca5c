package dev.lazarus.coordinator.cli;

import dev.lazarus.checkpoint.CheckpointSettings;
import dev.lazarus.coordinator.job.JobCoordinator;
import dev.lazarus.coordinator.job.JobDescription;
import dev.lazarus.coordinator.job.JobHosts;
import dev.lazarus.coordinator.job.JobOptions;
import dev.lazarus.coordinator.job.Launches;
import dev.lazarus.coordinator.job.RestoreSources;
import dev.lazarus.coordinator.job.StateCluster;
import dev.lazarus.coordinator.launch.Backend;
import dev.lazarus.coordinator.launch.HostLoss;
import dev.lazarus.coordinator.launch.HostPool;
import dev.lazarus.coordinator.launch.HostProbe;
import dev.lazarus.coordinator.launch.HostsFile;
import dev.lazarus.coordinator.launch.L2Sets;
import dev.lazarus.coordinator.launch.LaunchOutcome;
import dev.lazarus.coordinator.launch.LaunchPlan;
import dev.lazarus.coordinator.launch.LaunchRequest;
import dev.lazarus.coordinator.launch.NodeDaemonProcesses;
import dev.lazarus.coordinator.state.JobState;
import dev.lazarus.daemon.NodeDaemonConfig;
import dev.lazarus.daemon.l2.wire.JobSecret;
import dev.lazarus.easycrash.EasyCrashSettings;
import dev.lazarus.easycrash.PersistencePlan;
import dev.lazarus.mpi.launch.HangWatch;
import dev.lazarus.recovery.policy.failure.RecoveryMode;
import dev.lazarus.store.DirectoryCheck;
import dev.lazarus.store.JobId;
import dev.lazarus.store.level.l2.L2Scheme;
import dev.lazarus.store.level.xor.XorSetLayout;
import dev.lazarus.store.settings.SettingSource;
import dev.lazarus.store.settings.Settings;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code lazarus run}: launches an application on N ranks and exits with the job's status. */
@Command(name = "run", description = "Launch an MPI application on N ranks; exit with the job's status.",
        mixinStandardHelpOptions = true)
final class RunCommand implements Callable<Integer> {
    /** The directory under a job's state directory in which its launches' status directories are made. */
    static final String LAUNCH_STATUS = "launch-status";

    @ParentCommand
    private LazarusCli cli;

    @Option(names = "--np", required = true, paramLabel = "N", description = "Number of ranks (at least 1).")
    int ranks;

    @Option(names = "--backend", paramLabel = "NAME", defaultValue = "${env:LAZARUS_BACKEND:-openmpi}",
            description = "MPI implementation: openmpi or mpj (default: ${DEFAULT-VALUE}).")
    Backend backend;

    @Option(names = "--hosts", paramLabel = "FILE", description = "Open MPI host file (default: this node only).")
    Path hosts;

    @Option(names = "--spares", paramLabel = "FILE",
            description = "Spare hosts, as an Open MPI host file: a node that stops answering is replaced by the next"
                    + " spare, which takes its ranks and rebuilds their L1 files from L2 (needs --hosts).")
    Path spares;

    @Option(names = "--rsh-agent", paramLabel = "CMD",
            description = "Command Open MPI starts daemons on other hosts with (plm_rsh_agent).")
    String rshAgent;

    @Option(names = "--net", paramLabel = "CIDR",
            description = "Confine Open MPI's traffic between hosts to this network (e.g. 10.213.0.0/24).")
    String network;

    @Option(names = {"--classpath", "-cp"}, split = ":", paramLabel = "PATH",
            description = "Extra class path for the ranks, ahead of the bundled applications.")
    List<Path> classpath = new ArrayList<>();

    @Option(names = "--jvm-opt", paramLabel = "OPT", description = "Extra JVM option for every rank (repeatable).")
    List<String> jvmOptions = new ArrayList<>();

    @Option(names = "--job", paramLabel = "ID",
            description = "Job id: a relaunch with the same id resumes from NVM (default: the application name).")
    String jobId;

    @Option(names = "--nvm-dir", paramLabel = "DIR",
            description = "NVM directory for persistent heaps (default: /dev/shm/lazarus/nvm).")
    Path nvmDirectory;

    @Option(names = "--plan", paramLabel = "FILE", description = "EasyCrash persistence plan from a campaign.")
    Path plan;

    @Option(names = "--no-nvm-restart", description = "Start fresh even when NVM holds a resumable state.")
    boolean noNvmRestart;

    @Option(names = "--plain-arrays",
            description = "Run the application as the plain program: its objects are ordinary Java arrays, with"
                    + " EasyCrash off (no NVM heap, no restart, no checkpoints). The baseline Lazarus's overhead is"
                    + " measured against.")
    boolean plainArrays;

    @Option(names = "--ckpt-every", paramLabel = "N|auto",
            description = "Checkpoint the candidate objects to L1 (and every 4th version to L3) after every Nth"
                    + " iteration, or at Daly's interval for the measured checkpoint and iteration times, the MTBF and"
                    + " the plan's recomputability (auto); a relaunch NVM cannot serve restores the newest checkpoint"
                    + " (default: 0, none).")
    String checkpointEvery;

    @Option(names = "--mtbf", paramLabel = "SECONDS",
            description = "The mean time between failures --ckpt-every auto plans for (default: the coordinator's"
                    + " estimate from the job's failures, else a day).")
    String mtbf;

    @Option(names = "--ckpt-dir", paramLabel = "DIR",
            description = "L1 directory, node-local (default: LAZARUS_CKPT_DIR or /dev/shm/lazarus/ckpt).")
    Path checkpointDirectory;

    @Option(names = "--pfs-dir", paramLabel = "DIR|off",
            description = "L3 directory on the parallel file system (default: LAZARUS_CKPT_PFS_DIR or lazarus-ckpt).")
    String pfsDirectory;

    @Option(names = "--pfs-keep", paramLabel = "N",
            description = "Complete L3 versions to keep; each rank deletes its files of older ones once a newer"
                    + " version has fully drained (default: LAZARUS_CKPT_PFS_KEEP or 2; 0: keep all).")
    Integer pfsKeep;

    @Option(names = "--l2-every", paramLabel = "N",
            description = "XOR-encode every Nth L1 version across the job's nodes (L2; default: 1; 0: no L2)."
                    + " L2 needs a job on 2 or more nodes.")
    Integer l2Every;

    @Option(names = "--l2-set-size", paramLabel = "N",
            description = "Nodes per XOR set: L2 survives the loss of one node per set (default: 8).")
    Integer l2SetSize;

    @Option(names = "--l2-scheme", paramLabel = "xor|partner",
            description = "L2 redundancy: xor (RAID-5 parity, 1/(n-1) extra storage; default) or partner (a full copy"
                    + " of each node's files on the next node of its set: twice the storage, survives any losses that"
                    + " spare each lost node's next node).")
    String l2Scheme;

    @Option(names = "--l2-secret", paramLabel = "FILE",
            description = "Per-job secret the nodes' L2 services authenticate with, mode 0600 (default: a new random"
                    + " one per launch in LAZARUS_SECRET_DIR or ~/.lazarus/secrets, deleted when the job ends).")
    Path l2Secret;

    @Option(names = "--node-daemon", paramLabel = "embedded|process",
            description = "Where each node's L2 work (its L2 service, encoding, rebuilds) runs: in a node daemon"
                    + " process started on every host before the ranks, kept across relaunches, which also watches"
                    + " its ranks and holds the job's state with the coordinator (process; the default with --hosts),"
                    + " or in the node's lowest rank (embedded; the default on one host).")
    String nodeDaemon;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "Kill the job after this many seconds.")
    Long timeoutSeconds;

    @Option(names = "--max-restarts", paramLabel = "N",
            description = "Relaunch after a crash or hang up to N times, choosing each time how to recover"
                    + " (default: ${DEFAULT-VALUE}; 0: never).")
    int maxRestarts = JobOptions.DEFAULT_MAX_RESTARTS;

    @Option(names = "--recovery", paramLabel = "auto|nvm|rollback",
            description = "How a relaunch recovers: auto (the cheapest expected path; default), nvm (NVM restart"
                    + " whenever NVM can serve it) or rollback (never NVM: the newest checkpoint or the beginning).")
    String recovery = "auto";

    @Option(names = "--state-dir", paramLabel = "DIR|off",
            description = "Where the job's recovery state (launches, failures, decisions, catalog, statistics) is kept"
                    + " between allocations (default: LAZARUS_COORDINATOR_STATE_DIR or ~/.lazarus/state; off: none).")
    String stateDirectory;

    @Option(names = "--hang-timeout", paramLabel = "SECONDS",
            description = "A rank silent this long in its main loop is hung: the job is killed and relaunched"
                    + " (default: 10 median iterations, at least 60 s).")
    Long hangTimeoutSeconds;

    @Option(names = "--setup-timeout", paramLabel = "SECONDS",
            description = "A rank silent this long in one step of its set-up (JVM start, MPI_Init, restore) or after"
                    + " its main loop is hung (default: 600 s, or --hang-timeout when longer).")
    Long setUpTimeoutSeconds;

    @Option(names = "--dry-run", description = "Print the launch command instead of running it.")
    boolean dryRun;

    @Parameters(index = "0", paramLabel = "APP", description = "Application name (e.g. npb.CG) or class.")
    String application;

    @Parameters(index = "1..*", paramLabel = "ARGS", description = "The application's arguments.")
    List<String> arguments = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        if (timeoutSeconds != null && timeoutSeconds <= 0) {
            throw new IllegalArgumentException("--timeout=" + timeoutSeconds + " must be positive");
        }
        List<HostsFile.Entry> spareHosts = spareHosts();
        // The ranks read the plan with the same parser; a bad plan is an error before the job starts.
        PersistencePlan persistence = plan == null ? null : PersistencePlan.read(plan);
        List<String> options = withEasyCrashSettings(jvmOptions);
        CheckpointSettings settings = settings(options);
        checkLevels(settings);
        if (l2Secret != null) {
            checkSecret(l2Secret);
        }
        boolean daemonProcesses = settings.daemonMode().equals(NodeDaemonConfig.PROCESS);
        // The nodes' L2 services and the daemons (which serve L2 and may do nothing else) authenticate with it.
        Path configured = l2Secret != null ? l2Secret.toAbsolutePath() : settings.l2Secret().orElse(null);
        Path newSecret = configured == null && (settings.enabled() && settings.l2Every() > 0 || daemonProcesses)
                ? JobSecrets.newPath(cli.environment(), jobId, application) : null;
        Path secret = configured != null ? configured : newSecret;
        if (l2Secret != null || newSecret != null) {
            options.add("-D" + CheckpointSettings.L2_SECRET + "=" + secret);
        }
        JobOptions job = jobOptions(settings, persistence);
        JobKeeping keeping = keeping(settings.jobId());
        LaunchRequest request = new LaunchRequest(ranks, backend, hosts, rshAgent, network, classpath, options,
                application, arguments, timeoutSeconds == null ? null : Duration.ofSeconds(timeoutSeconds),
                statusRoot(keeping));
        Path daemonSecret = daemonProcesses ? secret : null;
        if (newSecret == null || dryRun) {
            return launch(request, job, keeping, daemonSecret, spareHosts, l2Sets(settings), dryRun);
        }
        JobSecrets.create(newSecret);
        try {
            return launch(request, job, keeping, daemonSecret, spareHosts, l2Sets(settings), false);
        } finally {
            Files.deleteIfExists(newSecret);
        }
    }

    /**
     * @return the node daemon mode when neither {@code --node-daemon} nor a setting names one: process on several hosts
     *         (each host's daemon does its node's L2 work, watches its ranks and holds the job's state), else null
     *         (the setting's default, embedded)
     */
    private String defaultDaemonMode(List<String> options) {
        boolean named = options.stream().anyMatch(o -> o.startsWith("-D" + Settings.CKPT_DAEMON.property() + "="))
                || new SettingSource(new Properties(), cli.environment()).text(Settings.CKPT_DAEMON).isPresent();
        return hosts != null && !named ? NodeDaemonConfig.PROCESS : null;
    }

    /**
     * @return where each launch's status directory is made: on several hosts, in the job's state directory, which
     *         every host sees (the ranks write their exit statuses there, and the directive is read from there); on
     *         one host, or without a state directory (said once), this host's temporary directory
     */
    private Path statusRoot(JobKeeping keeping) {
        if (hosts == null) {
            return null;
        }
        if (keeping.files() == null) {
            cli.err().println("lazarus: with --state-dir off, each launch's status directory is in this host's"
                    + " temporary directory: ranks on other hosts can record their exit status there only if it is"
                    + " shared, else every launch looks crashed");
            return null;
        }
        return keeping.files().jobDirectory().resolve(LAUNCH_STATUS);
    }

    /** @return the spare hosts, checked against the job's: none without {@code --spares} */
    private List<HostsFile.Entry> spareHosts() {
        if (spares == null) {
            return List.of();
        }
        if (hosts == null) {
            throw new IllegalArgumentException("--spares replaces lost hosts of --hosts: give --hosts too");
        }
        List<HostsFile.Entry> entries = HostsFile.entries(spares, "--spares");
        HostPool.checkSpares(HostsFile.entries(hosts, "--hosts"), entries);
        return entries;
    }

    /** @return the L2 sets, or none when the ranks will not write L2 (where a lost node cannot be rebuilt) */
    private L2Sets l2Sets(CheckpointSettings settings) {
        return hosts != null && settings.enabled() && settings.l2Every() > 0
                ? new L2Sets(settings.l2SetSize(), settings.l2Scheme()) : L2Sets.NONE;
    }

    /**
     * The checkpoint levels the ranks will write must be usable before the job starts: a user who asked for
     * checkpoints gets them or this error, never a run without them (DESIGN.md, recovery invariant 6).
     */
    private void checkLevels(CheckpointSettings settings) {
        if (!settings.enabled()) {
            return;
        }
        DirectoryCheck.creatable(checkpointDirectory != null ? "--ckpt-dir" : "L1 directory", settings.l1Directory());
        settings.pfsDirectory().ifPresent(pfs ->
                DirectoryCheck.creatable(pfsDirectory != null ? "--pfs-dir" : "L3 directory", pfs));
    }

    /** A secret the user gave is checked as the L2 services will load it, on one host as on many. */
    private static void checkSecret(Path file) {
        try {
            JobSecret.load(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("--l2-secret: " + e.getMessage());
        }
    }

    /**
     * @param options the ranks' JVM options
     * @return the checkpoint settings the ranks will conclude from these options and this environment
     */
    private CheckpointSettings settings(List<String> options) {
        Properties properties = new Properties();
        for (String option : options) {
            int equals = option.indexOf('=');
            if (option.startsWith("-Dlazarus.") && equals > 0) {
                properties.setProperty(option.substring(2, equals), option.substring(equals + 1));
            }
        }
        return new CheckpointSettings(properties, cli.environment()).conclude(application);
    }

    private static int inRange(String option, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(option + "=" + value + " must be " + min
                    + (max == Integer.MAX_VALUE ? " or more" : " to " + max));
        }
        return value;
    }

    /** @return {@code text} as an integer; one line naming {@code option} and what else it takes otherwise */
    private static int integer(String option, String text, String orElse) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + "=" + text + " must be an integer" + orElse);
        }
    }

    /** The EasyCrash and checkpoint options become system properties of every rank (see their settings classes). */
    private List<String> withEasyCrashSettings(List<String> options) {
        List<String> all = new ArrayList<>(options);
        if (jobId != null) {
            all.add("-D" + Settings.JOB_ID.property() + "=" + JobId.check(jobId));
        }
        if (nvmDirectory != null) {
            all.add("-D" + Settings.NVM_DIR.property() + "="
                    + DirectoryCheck.creatable("--nvm-dir", nvmDirectory).toAbsolutePath());
        }
        if (plan != null) {
            all.add("-D" + Settings.PLAN.property() + "=" + plan.toAbsolutePath());
        }
        if (noNvmRestart) {
            all.add("-D" + Settings.NVM_RESTART.property() + "=off");
        }
        if (plainArrays) {
            if (plan != null || checkpointEvery != null && !checkpointEvery.equals("0")) {
                throw new IllegalArgumentException("--plain-arrays runs without a persistent heap or checkpoints:"
                        + " drop " + (plan != null ? "--plan" : "--ckpt-every"));
            }
            all.add("-D" + EasyCrashSettings.EASYCRASH + "=off");
        }
        if (checkpointEvery != null) {
            all.add("-D" + CheckpointSettings.EVERY + "=" + (checkpointEvery.equals(CheckpointSettings.AUTO)
                    ? CheckpointSettings.AUTO : inRange("--ckpt-every", integer("--ckpt-every", checkpointEvery,
                            " or auto"), 0, Integer.MAX_VALUE)));
        }
        if (mtbf != null) {
            try {
                all.add("-D" + CheckpointSettings.MTBF + "=" + CheckpointSettings.mtbf(mtbf));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--mtbf=" + mtbf + " must be a number of seconds from 1 to "
                        + (long) CheckpointSettings.MAX_MTBF_SECONDS);
            }
        }
        if (l2Every != null) {
            all.add("-D" + CheckpointSettings.L2_EVERY + "=" + inRange("--l2-every", l2Every, 0, 1_000_000));
        }
        if (l2SetSize != null) {
            all.add("-D" + CheckpointSettings.L2_SET_SIZE + "=" + inRange("--l2-set-size", l2SetSize,
                    XorSetLayout.MIN_SET_SIZE, XorSetLayout.MAX_SET_SIZE));
        }
        if (l2Scheme != null) {
            try {
                all.add("-D" + CheckpointSettings.L2_SCHEME + "=" + L2Scheme.parse(l2Scheme).label());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--l2-scheme=" + l2Scheme + " must be xor or partner");
            }
        }
        if (nodeDaemon != null && !nodeDaemon.equals(NodeDaemonConfig.EMBEDDED)
                && !nodeDaemon.equals(NodeDaemonConfig.PROCESS)) {
            throw new IllegalArgumentException("--node-daemon=" + nodeDaemon + " must be embedded or process");
        }
        String daemonMode = nodeDaemon != null ? nodeDaemon : defaultDaemonMode(options);
        if (daemonMode != null) {
            all.add("-D" + Settings.CKPT_DAEMON.property() + "=" + daemonMode);
        }
        if (checkpointDirectory != null) {
            all.add("-D" + CheckpointSettings.L1_DIR + "=" + checkpointDirectory.toAbsolutePath());
        }
        if (pfsDirectory != null) {
            all.add("-D" + CheckpointSettings.PFS_DIR + "=" + (pfsDirectory.equals("off") ? "off"
                    : Path.of(pfsDirectory).toAbsolutePath().toString()));
        }
        if (pfsKeep != null) {
            all.add("-D" + CheckpointSettings.PFS_KEEP + "=" + inRange("--pfs-keep", pfsKeep, 0,
                    CheckpointSettings.MAX_KEEP));
        }
        return all;
    }

    /** How the coordinator runs this job: restarts, recovery mode, hang timeout, and what it can restore from. */
    private JobOptions jobOptions(CheckpointSettings settings, PersistencePlan persistence) {
        Duration hangTimeout = timeout("--hang-timeout", hangTimeoutSeconds);
        Duration setUpTimeout = timeout("--setup-timeout", setUpTimeoutSeconds);
        RestoreSources sources = settings.enabled()
                ? RestoreSources.of(settings.l1Directory(), settings.pfsDirectory().orElse(null), settings.jobId(),
                        hosts == null)
                : RestoreSources.none();
        Double planned = persistence == null || Double.isNaN(persistence.recomputability()) ? null
                : persistence.recomputability();
        return new JobOptions(maxRestarts, RecoveryMode.parse(recovery),
                new HangWatch(hangTimeout, setUpTimeout), sources,
                planned, !noNvmRestart && !plainArrays);
    }

    /** The longest hang or set-up timeout: 30 days (a longer one would overflow the watch's arithmetic). */
    private static final long MAX_TIMEOUT_SECONDS = 30L * 24 * 3600;

    /** @return {@code seconds} of {@code option} as a duration, null when not given; one line when out of range */
    private static Duration timeout(String option, Long seconds) {
        if (seconds == null) {
            return null;
        }
        if (seconds <= 0 || seconds > MAX_TIMEOUT_SECONDS) {
            throw new IllegalArgumentException(option + "=" + seconds + " must be 1 to " + MAX_TIMEOUT_SECONDS
                    + " (30 days)");
        }
        return Duration.ofSeconds(seconds);
    }

    /** Where this job's state is kept and how its coordinator's cluster member is configured. */
    private JobKeeping keeping(String job) {
        JobKeeping keeping = JobKeeping.of(cli.environment(), stateDirectory, job, network, hosts);
        if (keeping.files() != null) {
            // Checked before the job starts, as the levels are: a state that cannot be kept is an error now.
            DirectoryCheck.creatable(stateDirectory != null ? "--state-dir" : "state directory",
                    keeping.files().jobDirectory().getParent());
        }
        return keeping;
    }

    /**
     * Plans and runs (or prints) a launch under the coordinator.
     *
     * @param daemonSecret the job's secret when the nodes' L2 work runs in node daemon processes, which are then
     *                     started on every host first and restarted before a relaunch where they died; else null
     * @param spareHosts   the hosts that take lost ones' places
     * @param sets         the nodes' L2 sets, none without L2
     */
    private int launch(LaunchRequest request, JobOptions job, JobKeeping keeping, Path daemonSecret,
                       List<HostsFile.Entry> spareHosts, L2Sets sets, boolean dryRun) throws Exception {
        LaunchPlan plan = cli.launcher().plan(request);
        if (dryRun) {
            plan.environment().forEach((k, v) -> cli.out().println(k + "=" + v));
            cli.out().println(String.join(" ", plan.command()));
            return 0;
        }
        JobDescription description = new JobDescription(keeping.job(), request.application(), request.arguments(),
                request.ranks(), keeping.nodes());
        // Node daemons on several hosts are members of the job's cluster: they join it through the coordinator's
        // member, which therefore starts first and serves the state from the start.
        JobState member = daemonSecret != null && request.hostsFile() != null && keeping.files() != null
                ? keeping.cluster().start(keeping.files(), cli.err()) : null;
        StateCluster cluster = member != null ? StateCluster.running(member)
                : StateCluster.atFirstFailure(() -> keeping.cluster().start(keeping.files(), cli.err()));
        boolean handedOver = false;
        try (NodeDaemonProcesses daemons = daemonSecret == null ? null
                : startNodeDaemons(request, plan, keeping, daemonSecret, member)) {
            boolean[] relaunch = {false};
            Launches launches = daemons == null ? cli.launcher()::launch : (p, directive, hangs, halts, watcher) -> {
                boolean first = !relaunch[0];
                relaunch[0] = true;
                try {
                    daemons.ensureRunning();
                } catch (IOException e) {
                    if (first) {
                        throw e; // the hosts or the agent are wrong, which a relaunch would repeat
                    }
                    // A relaunch: a node gone since the last failure cannot start its daemon; the coordinator
                    // surveys the hosts and recovers from that loss as from any other.
                    cli.err().println("lazarus: " + e.getMessage());
                    return LaunchOutcome.notStarted(255, request.ranks());
                }
                // Daemons that are members of the job's cluster watch their ranks; this process's own watch is the
                // safety net for a daemon lost with its node, and waits twice as long.
                return cli.launcher().launch(p, directive, member == null ? hangs : hangs.behindNodeDaemons(), halts,
                        watcher);
            };
            try (HostPool pool = request.hostsFile() == null ? null : new HostPool(HostsFile.entries(
                    request.hostsFile(), "--hosts"), spareHosts, new HostProbe(request.rshAgent(),
                    HostProbe.DEFAULT_TIMEOUT), daemons, sets, cli.err())) {
                JobCoordinator coordinator = new JobCoordinator(launches, job, description, keeping.files(), cluster,
                        jobHosts(pool), cli.err());
                handedOver = true;
                return coordinator.run(plan);
            }
        } finally {
            if (member != null && !handedOver) {
                member.close();
            }
        }
    }

    /** The coordinator's view of the hosts: surveyed after a failure, spares in unreachable ones' places. */
    private JobHosts jobHosts(HostPool pool) {
        if (pool == null) {
            return JobHosts.THIS_HOST;
        }
        return new JobHosts() {
            @Override
            public HostLoss survey() {
                return pool.survey();
            }

            @Override
            public boolean replaceable(HostLoss loss) {
                return pool.replaceable(loss);
            }

            @Override
            public boolean movesRanks(HostLoss loss) {
                return pool.movesRanks(loss);
            }

            @Override
            public Optional<LaunchPlan> next(LaunchPlan plan, HostLoss loss) throws IOException {
                return pool.replaceUnreachable(plan, loss, cli.launcher()::plan);
            }

            @Override
            public List<String> nodes() {
                return pool.nodes();
            }
        };
    }

    /**
     * Starts the job's node daemon process on every host of its host file, or on this host without one.
     *
     * @param member the coordinator's member of the job's cluster, which the daemons join; null: they do not
     */
    private NodeDaemonProcesses startNodeDaemons(LaunchRequest request, LaunchPlan plan, JobKeeping keeping,
                                                 Path secret, JobState member) throws IOException {
        List<String> hostNames = request.hostsFile() == null ? List.of() : HostsFile.hosts(request.hostsFile());
        List<String> joining = new ArrayList<>();
        if (member != null) {
            joining.addAll(List.of("--cluster-token", keeping.cluster().token(), "--cluster-join", member.address(),
                    "--cluster-port", Integer.toString(keeping.cluster().port()), "--state-dir",
                    keeping.files().jobDirectory().getParent().toString()));
            if (network != null) {
                joining.addAll(List.of("--net", network));
            }
        }
        return NodeDaemonProcesses.start(hostNames, request.rshAgent(),
                cli.launcher().nodeDaemonCommand(plan, keeping.job(), secret, joining), cli.err());
    }
}
