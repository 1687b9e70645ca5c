package dev.lazarus.coordinator.cli;

import dev.lazarus.coordinator.launch.Backend;
import dev.lazarus.coordinator.launch.LaunchPlan;
import dev.lazarus.coordinator.launch.LaunchRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code lazarus run}: launches an application on N ranks and exits with the job's status. */
@Command(name = "run", description = "Launch an MPI application on N ranks; exit with the job's status.",
        mixinStandardHelpOptions = true)
final class RunCommand implements Callable<Integer> {

    @ParentCommand
    private LazarusCli cli;

    @Option(names = "--np", required = true, paramLabel = "N", description = "Number of ranks (at least 1).")
    int ranks;

    @Option(names = "--backend", paramLabel = "NAME", defaultValue = "${env:LAZARUS_BACKEND:-openmpi}",
            description = "MPI implementation: openmpi or mpj (default: ${DEFAULT-VALUE}).")
    Backend backend;

    @Option(names = "--hosts", paramLabel = "FILE", description = "Open MPI host file (default: this node only).")
    Path hosts;

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

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "Kill the job after this many seconds.")
    Long timeoutSeconds;

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
        LaunchRequest request = new LaunchRequest(ranks, backend, hosts, rshAgent, network, classpath, jvmOptions,
                application, arguments, timeoutSeconds == null ? null : Duration.ofSeconds(timeoutSeconds));
        return launch(cli, request, dryRun);
    }

    /** Plans and runs (or prints) a launch; shared with {@code demo}. */
    static int launch(LazarusCli cli, LaunchRequest request, boolean dryRun) throws Exception {
        LaunchPlan plan = cli.launcher().plan(request);
        if (dryRun) {
            plan.environment().forEach((k, v) -> cli.out().println(k + "=" + v));
            cli.out().println(String.join(" ", plan.command()));
            return 0;
        }
        return cli.launcher().run(plan);
    }
}
