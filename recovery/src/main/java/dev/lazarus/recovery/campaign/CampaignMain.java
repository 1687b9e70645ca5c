package dev.lazarus.recovery.campaign;

import dev.lazarus.easycrash.RecomputableApplication;
import dev.lazarus.easycrash.trace.Tracing;
import dev.lazarus.mpi.MpiApplication;
import dev.lazarus.mpi.launch.ApplicationCatalog;
import dev.lazarus.mpi.local.SingleRankComm;
import dev.lazarus.recovery.crash.CacheConfig;
import dev.lazarus.recovery.selection.CrashTestOutcome;
import dev.lazarus.recovery.selection.ObjectCorrelation;
import dev.lazarus.store.files.SecureFiles;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The process {@code ./lazarus campaign} starts (a JVM with tracing on): runs the campaign, writes
 * {@code report.json}, {@code chart.png} and {@code plan.properties} into the output directory, and prints a summary
 * table (or the JSON with {@code --json}). Bad arguments end in one line and status 2.
 */
public final class CampaignMain {
    private CampaignMain() {
    }

    public static void main(String[] args) {
        try {
            System.exit(run(CampaignOptions.parse(args), System.out, System.err));
        } catch (IllegalArgumentException | IllegalStateException e) {
            System.err.println("lazarus campaign: " + e.getMessage());
            System.exit(e instanceof IllegalArgumentException ? 2 : 1);
        } catch (Exception e) {
            System.err.println("lazarus campaign: failed: " + e);
            System.exit(1);
        }
    }

    static int run(CampaignOptions options, PrintStream out, PrintStream err) throws Exception {
        if (!Tracing.ENABLED) {
            throw new IllegalStateException("start with -D" + Tracing.PROPERTY + "=true (./lazarus campaign does)");
        }
        ApplicationCatalog catalog = new ApplicationCatalog(CampaignMain.class.getClassLoader());
        MpiApplication app = catalog.resolve(options.application());
        if (!(app instanceof RecomputableApplication)) {
            throw new IllegalArgumentException("application " + options.application() + " cannot be crash-tested:"
                    + " it does not implement " + RecomputableApplication.class.getName());
        }
        Path out0 = options.output();
        long start = System.nanoTime();
        CampaignTarget target = new CampaignTarget(options.application(),
                () -> (RecomputableApplication) catalog.resolve(options.application()),
                options.applicationArguments().toArray(String[]::new));
        // Preparing parses the application's arguments (--class): a bad one is refused before anything is created.
        long footprint = target.prepare(new SingleRankComm()).heapBytes();
        Files.createDirectories(out0, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path work = Files.createTempDirectory(options.workRoot(), "campaign");
        try {
            CacheConfig cache = options.cacheFor(footprint);
            err.printf(Locale.ROOT, "lazarus campaign: %s %s, %d crash tests per phase, %d threads, cache %s%s%n",
                    options.application(), String.join(" ", options.applicationArguments()), options.tests(),
                    options.threads(), cache.toSpec(), options.scaleCache()
                            ? String.format(Locale.ROOT, " (Table 4 scaled to a %.1f MiB footprint)",
                                    footprint / 1048576.0) : "");
            Campaign.Timing timing = measureTiming(options, work);
            err.printf(Locale.ROOT, "lazarus campaign: crash-free run %.3f s, write-back %.1f ns per line%n",
                    timing.runSeconds(), timing.secondsPerLine() * 1e9);
            CrashTestEngine engine = new CrashTestEngine(new CrashTestEngine.Options(work, cache,
                    options.threads(), Duration.ofSeconds(120)));
            Campaign campaign = new Campaign(engine, options.settings());
            Campaign.Report report = campaign.run(target, timing, new ConsoleProgress(err));
            double seconds = (System.nanoTime() - start) * 1e-9;
            Path json = out0.resolve("report.json");
            CampaignReportWriter.write(report, seconds, cache, options.scaleCache() ? footprint : 0, json);
            RecomputabilityChart.write(report, out0.resolve("chart.png"));
            report.persistencePlan().withRecomputability(report.plan().recomputability())
                    .write(out0.resolve("plan.properties"), "From a crash-test campaign of "
                    + options.application() + " " + String.join(" ", options.applicationArguments()) + ".");
            for (Path p : List.of(json, out0.resolve("chart.png"))) {
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-------"));
            }
            if (options.json()) {
                out.println(Files.readString(json, StandardCharsets.UTF_8));
            } else {
                printSummary(report, seconds, out0, out);
            }
            return 0;
        } finally {
            SecureFiles.deleteTree(work);
        }
    }

    /** Runs {@link ProductionTiming} in a JVM without tracing, with this JVM's other flags and class path. */
    private static Campaign.Timing measureTiming(CampaignOptions options, Path work) throws IOException,
            InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String flag : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!flag.startsWith("-D" + Tracing.PROPERTY)) {
                command.add(flag);
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ProductionTiming.class.getName(),
                work.toString(), options.application()));
        command.addAll(options.applicationArguments());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
            throw new IllegalStateException("timing the crash-free run failed: " + output.strip());
        }
        String line = output.lines().filter(l -> l.startsWith("runSeconds=")).findFirst()
                .orElseThrow(() -> new IllegalStateException("timing run printed no result: " + output.strip()));
        String[] fields = line.split(" ");
        return new Campaign.Timing(Double.parseDouble(fields[0].substring("runSeconds=".length())),
                Double.parseDouble(fields[1].substring("secondsPerLine=".length())));
    }

    private static void printSummary(Campaign.Report report, double seconds, Path dir, PrintStream out) {
        out.printf(Locale.ROOT, "%n%-10s %16s %6s %6s %6s %6s%n", "phase", "recomputability", "S1", "S2", "S3", "S4");
        for (Campaign.Phase phase : CampaignReportWriter.phases(report)) {
            out.printf(Locale.ROOT, "%-10s %15.1f%% %6d %6d %6d %6d%n", phase.name(), 100 * phase.recomputability(),
                    phase.outcomes().get(CrashTestOutcome.S1), phase.outcomes().get(CrashTestOutcome.S2),
                    phase.outcomes().get(CrashTestOutcome.S3), phase.outcomes().get(CrashTestOutcome.S4));
        }
        out.println();
        for (ObjectCorrelation c : report.correlations()) {
            out.printf(Locale.ROOT, "object %-10s stale %5.1f%%  R_s=%8.4f p=%10.3e %s%n", c.name(),
                    100 * report.meanInconsistentRates().getOrDefault(c.name(), 0.0), c.spearman(), c.pValue(),
                    c.verdict() == ObjectCorrelation.Verdict.CRITICAL ? "CRITICAL"
                            : c.verdict().name().toLowerCase(Locale.ROOT));
        }
        out.printf(Locale.ROOT, "plan: persist %s at %s%n", report.persistencePlan().critical(),
                planText(report));
        out.printf(Locale.ROOT, "predicted recomputability %.1f%%, overhead %.2f%% (budget %.0f%%)%n",
                100 * report.selection().predictedRecomputability(), 100 * report.selection().overhead(),
                100 * report.selection().overheadBudget());
        out.printf(Locale.ROOT, "tau %.3f%s: the plan's measured recomputability %s it%n", report.tau().value(),
                report.tau().reachable() ? "" : " (unreachable)",
                report.plan().recomputability() > report.tau().value() ? "clears" : "does not clear");
        out.printf(Locale.ROOT, "wrote %s/{report.json,chart.png,plan.properties} in %.0f s%n", dir, seconds);
    }

    private static String planText(Campaign.Report report) {
        List<String> parts = new ArrayList<>();
        for (int k = 0; k < report.regions().size(); k++) {
            int every = report.persistencePlan().every(k);
            if (every > 0) {
                String often = every == 1 ? " every iteration" : " every " + every + " iterations";
                parts.add(report.regions().get(k) + often);
            }
        }
        return parts.isEmpty() ? "no region (persisting does not pay)" : String.join(", ", parts);
    }

    /** Progress on standard error: one line per phase, and a counter updated in place on a terminal. */
    private static final class ConsoleProgress implements Campaign.Progress {
        private final PrintStream err;
        private final boolean terminal = System.console() != null;
        private String phase = "";
        private int lastTenth = -1;
        private long phaseStart = System.nanoTime();

        ConsoleProgress(PrintStream err) {
            this.err = err;
        }

        @Override
        public void phase(String name, int index, int phases) {
            phase = "phase " + index + "/" + phases + " (" + name + ")";
            lastTenth = -1;
            phaseStart = System.nanoTime();
            err.println("lazarus campaign: " + phase);
        }

        @Override
        public synchronized void tests(int finished, int total) {
            int tenth = 10 * finished / Math.max(1, total);
            String done = finished < total ? "" : String.format(Locale.ROOT, " in %.1f s",
                    (System.nanoTime() - phaseStart) * 1e-9);
            if (terminal) {
                err.print("\r  " + finished + "/" + total + " crash tests" + done + (done.isEmpty() ? "" : "\n"));
            } else if (tenth != lastTenth) {
                lastTenth = tenth;
                err.println("  " + finished + "/" + total + " crash tests" + done);
            }
        }
    }

}
