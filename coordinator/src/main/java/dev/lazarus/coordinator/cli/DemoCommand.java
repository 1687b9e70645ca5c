package dev.lazarus.coordinator.cli;

import dev.lazarus.coordinator.job.JobCoordinator;
import dev.lazarus.coordinator.job.JobDescription;
import dev.lazarus.coordinator.job.JobHosts;
import dev.lazarus.coordinator.job.JobOptions;
import dev.lazarus.coordinator.job.Launches;
import dev.lazarus.coordinator.job.RestoreSources;
import dev.lazarus.coordinator.job.StateCluster;
import dev.lazarus.coordinator.launch.Backend;
import dev.lazarus.coordinator.launch.LaunchPlan;
import dev.lazarus.coordinator.launch.LaunchRequest;
import dev.lazarus.coordinator.state.StateFiles;
import dev.lazarus.mpi.launch.HangWatch;
import dev.lazarus.recovery.policy.failure.RecoveryMode;
import dev.lazarus.store.files.SecureFiles;
import dev.lazarus.store.settings.Settings;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code lazarus demo}: the point of the product in under a minute. NPB CG class W runs on 4 ranks with checkpoints;
 * part way through, one rank is killed with SIGKILL (announced), and the coordinator classifies the failure, weighs
 * the ways back with their numbers, relaunches, and the job ends verified. Everything it writes lives in a private
 * temporary directory, deleted at the end.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Run NPB CG class W on 4 ranks with checkpoints, SIGKILL one rank part way, and watch the"
                + " coordinator bring the job back to a verified result.")
final class DemoCommand implements Callable<Integer> {
    private static final String JOB = "demo";
    private static final int CHECKPOINT_EVERY = 4;

    @ParentCommand
    private LazarusCli cli;

    @Option(names = "--backend", paramLabel = "NAME", defaultValue = "${env:LAZARUS_BACKEND:-openmpi}",
            description = "MPI implementation: openmpi or mpj (default: ${DEFAULT-VALUE}).")
    Backend backend;

    @Option(names = "--no-kill", description = "Run without killing a rank.")
    boolean noKill;

    @Override
    public Integer call() throws Exception {
        Path dir = Files.createTempDirectory("lazarus-demo-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        try {
            return demo(dir);
        } finally {
            SecureFiles.deleteTree(dir);
        }
    }

    private int demo(Path dir) throws Exception {
        cli.out().println("lazarus demo: NPB CG class W on 4 ranks (" + backend + "), a checkpoint every "
                + CHECKPOINT_EVERY + " iterations" + (noKill ? "" : "; one rank will be killed part way"));
        List<String> options = List.of("-D" + Settings.JOB_ID.property() + "=" + JOB,
                "-D" + Settings.NVM_DIR.property() + "=" + dir.resolve("nvm"),
                "-D" + Settings.CKPT_EVERY.property() + "=" + CHECKPOINT_EVERY,
                "-D" + Settings.CKPT_DIR.property() + "=" + dir.resolve("l1"),
                "-D" + Settings.CKPT_PFS_DIR.property() + "=" + dir.resolve("pfs"));
        LaunchRequest request = new LaunchRequest(4, backend, null, null, null, List.of(), options, "npb.CG",
                List.of("--class", "W"), null);
        LaunchPlan plan = cli.launcher().plan(request);
        JobOptions job = new JobOptions(JobOptions.DEFAULT_MAX_RESTARTS, RecoveryMode.AUTO, new HangWatch(null),
                RestoreSources.of(dir.resolve("l1"), dir.resolve("pfs"), JOB, true), null, true);
        JobKeeping keeping = JobKeeping.of(cli.environment(), dir.resolve("state").toString(), JOB, null, null);
        StateFiles files = keeping.files();
        AtomicBoolean firstLaunch = new AtomicBoolean(true);
        Launches launches = (p, directive, hangs, halts, watcher) -> cli.launcher().launch(p, directive, hangs, halts,
                firstLaunch.getAndSet(false) && !noKill ? watcher.and(new RankKiller(4, 0.5, cli.out())) : watcher);
        int status = new JobCoordinator(launches, job, new JobDescription(JOB, "npb.CG", List.of("--class", "W"), 4,
                keeping.nodes()), files, StateCluster.atFirstFailure(() -> keeping.cluster().start(files, cli.err())),
                JobHosts.THIS_HOST, cli.err()).run(plan);
        cli.out().println(status == 0 ? "lazarus demo: the job survived the crash and its result is verified"
                : "lazarus demo: the job ended with status " + status);
        return status;
    }
}
