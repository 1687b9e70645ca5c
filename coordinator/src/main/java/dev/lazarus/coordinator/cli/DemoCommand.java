package dev.lazarus.coordinator.cli;

import dev.lazarus.coordinator.job.JobOptions;
import dev.lazarus.coordinator.job.RestoreSources;
import dev.lazarus.coordinator.launch.Backend;
import dev.lazarus.coordinator.launch.HangWatch;
import dev.lazarus.coordinator.launch.LaunchRequest;
import dev.lazarus.recovery.policy.failure.RecoveryMode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.util.List;
import java.util.concurrent.Callable;

/** {@code lazarus demo}: the NPB CG kernel, class W, on 4 ranks, verified. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Run the NPB CG kernel, class W, on 4 ranks with official verification.")
final class DemoCommand implements Callable<Integer> {

    @ParentCommand
    private LazarusCli cli;

    @Option(names = "--backend", paramLabel = "NAME", defaultValue = "${env:LAZARUS_BACKEND:-openmpi}",
            description = "MPI implementation: openmpi or mpj (default: ${DEFAULT-VALUE}).")
    Backend backend;

    @Override
    public Integer call() throws Exception {
        cli.out().println("lazarus demo: NPB CG class W on 4 ranks (" + backend + ")");
        LaunchRequest request = new LaunchRequest(4, backend, null, null, null, List.of(), List.of(), "npb.CG",
                List.of("--class", "W"), null);
        JobOptions job = new JobOptions(JobOptions.DEFAULT_MAX_RESTARTS, RecoveryMode.AUTO, new HangWatch(null),
                RestoreSources.none(), null, true);
        JobKeeping keeping = JobKeeping.of(cli.environment(), null, "npb.CG", null, null);
        return RunCommand.launch(cli, request, job, keeping, false);
    }
}
