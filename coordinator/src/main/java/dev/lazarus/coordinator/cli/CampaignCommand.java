package dev.lazarus.coordinator.cli;

import dev.lazarus.coordinator.launch.InstallLayout;
import dev.lazarus.coordinator.launch.JobLauncher;
import dev.lazarus.coordinator.launch.RankJvmNotice;
import dev.lazarus.store.DirectoryCheck;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code lazarus campaign}: an EasyCrash crash-test campaign (the paper's §5.3 steps 1-4) on one rank in a tracing
 * JVM. Writes {@code report.json}, {@code chart.png} and {@code plan.properties} to {@code campaign/APP/}.
 */
@Command(name = "campaign", mixinStandardHelpOptions = true,
        description = "Crash-test an application under the cache model and choose what to persist where.")
final class CampaignCommand implements Callable<Integer> {

    @ParentCommand
    private LazarusCli cli;

    @Parameters(index = "0", paramLabel = "APP", description = "Application name, e.g. npb.CG or solver.HEAT.")
    String application;

    @Option(names = "--class", paramLabel = "C", defaultValue = "S", description = "Problem class (default: S).")
    String problemClass;

    @Option(names = "--tests", paramLabel = "N", defaultValue = "1000",
            description = "Crash tests per phase; there are four phases (default: 1000).")
    int tests;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Seed of the crash points.")
    long seed;

    @Option(names = "--threads", paramLabel = "T", description = "Restart workers (default: the cores).")
    Integer threads;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: campaign/APP).")
    Path output;

    @Option(names = "--cache", paramLabel = "auto|table4|SPEC",
            description = "Cache levels: auto (default) = the paper's Table 4 shrunk so the last level holds a quarter"
                    + " of the application's data; table4 = 32K:8,1M:12,19712K:11; or SIZE:WAYS,... L1 first.")
    String cache;

    @Option(names = "--budget", paramLabel = "F", defaultValue = "0.03",
            description = "Largest persistence overhead, a fraction of run time (default: 0.03).")
    double budget;

    @Option(names = "--mtbf-hours", paramLabel = "H", defaultValue = "12", description = "System MTBF for tau.")
    double mtbfHours;

    @Option(names = "--checkpoint-seconds", paramLabel = "S", defaultValue = "320",
            description = "Checkpoint time T_chk for tau (default: 320).")
    double checkpointSeconds;

    @Option(names = "--json", description = "Print report.json instead of the table.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        if (tests < 1) {
            throw new IllegalArgumentException("--tests=" + tests + " must be at least 1");
        }
        if (threads != null && threads < 1) {
            throw new IllegalArgumentException("--threads=" + threads + " must be at least 1");
        }
        Path out = output == null ? Path.of("campaign", application) : output;
        DirectoryCheck.creatable("--out", out);
        InstallLayout layout = cli.layout();
        String classpath = InstallLayout.classPath(InstallLayout.union(List.of(
                layout.moduleClasspath(layout.recoveryModule()), layout.moduleClasspath(layout.applicationsModule()))));
        List<String> command = new ArrayList<>(List.of(cli.javaHome().resolve("bin/java").toString()));
        command.addAll(JobLauncher.RANK_JVM_FLAGS);
        command.addAll(List.of("-Dlazarus.easycrash.trace=true", "-cp", classpath,
                "dev.lazarus.recovery.campaign.CampaignMain", "--app", application,
                "--out", out.toAbsolutePath().toString(),
                "--tests", Integer.toString(tests), "--seed", Long.toString(seed),
                "--budget", Double.toString(budget), "--mtbf-hours", Double.toString(mtbfHours),
                "--checkpoint-seconds", Double.toString(checkpointSeconds)));
        if (threads != null) {
            command.addAll(List.of("--threads", threads.toString()));
        }
        if (cache != null) {
            command.addAll(List.of("--cache", cache));
        }
        if (json) {
            command.add("--json");
        }
        command.addAll(List.of("--", "--class", problemClass, "--quiet"));
        // The campaign JVM's lines go to this command's streams, so its one-line errors are ours (and testable).
        Process process = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.INHERIT).start();
        Thread errors = Thread.ofPlatform()
                .start(() -> RankJvmNotice.copyWithout(process.getErrorStream(), cli.err()));
        copy(process.getInputStream(), cli.out());
        errors.join();
        return process.waitFor();
    }

    private static void copy(InputStream from, PrintStream to) {
        try (from) {
            from.transferTo(to);
        } catch (IOException e) {
            // The campaign JVM is gone; its exit status says how it ended.
        }
        to.flush();
    }
}
