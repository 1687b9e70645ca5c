package dev.lazarus.coordinator.cli;

import dev.lazarus.coordinator.launch.Backend;
import dev.lazarus.coordinator.launch.InstallLayout;
import dev.lazarus.coordinator.launch.JobLauncher;
import dev.lazarus.store.files.UnsafePathException;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code lazarus}: the one entry point for users. The shell script {@code ./lazarus} runs setup and then this. */
@Command(name = "lazarus", mixinStandardHelpOptions = true, version = "lazarus 0.1.0",
        description = "Keeps MPI jobs written in Java alive through crashes and node failures.",
        subcommands = {RunCommand.class, CampaignCommand.class, CkptCommand.class, StatusCommand.class, HaltCommand.class,
                DemoCommand.class, CommandLine.HelpCommand.class})
public final class LazarusCli implements Runnable {
    /** Exit status for bad input. */
    public static final int USAGE = 2;

    private final InstallLayout layout;
    private final Path javaHome;
    private final Map<String, String> environment;
    private final PrintStream out;
    private final PrintStream err;

    @Spec
    private CommandSpec spec;

    LazarusCli(InstallLayout layout, Path javaHome, Map<String, String> environment, PrintStream out,
               PrintStream err) {
        this.layout = layout;
        this.javaHome = javaHome;
        this.environment = environment;
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        Path home = Path.of(System.getProperty("lazarus.home", "."));
        System.exit(execute(args, new InstallLayout(home), Path.of(System.getProperty("java.home")), System.getenv(),
                System.out, System.err));
    }

    /** Runs the command line and returns the exit status; never throws. */
    public static int execute(String[] args, InstallLayout layout, Path javaHome, Map<String, String> environment,
                              PrintStream out, PrintStream err) {
        LazarusCli cli = new LazarusCli(layout, javaHome, environment, out, err);
        CommandLine commandLine = new CommandLine(cli)
                .registerConverter(Backend.class, LazarusCli::backend)
                .setOut(new PrintWriter(out, true, StandardCharsets.UTF_8))
                .setErr(new PrintWriter(err, true, StandardCharsets.UTF_8))
                .setParameterExceptionHandler((e, ignored) -> {
                    err.println("lazarus: " + e.getMessage() + " (see 'lazarus "
                            + qualifiedName(e.getCommandLine()) + "--help')");
                    return USAGE;
                })
                .setExecutionExceptionHandler((e, ignored, parsed) -> cli.failed(e));
        // After APP, everything belongs to the application in `run` (not in `campaign`, whose options follow APP).
        commandLine.getSubcommands().get("run").setStopAtPositional(true);
        return commandLine.execute(args);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command: run, campaign, ckpt or demo");
    }

    JobLauncher launcher() {
        return new JobLauncher(layout, javaHome, environment, out, err);
    }

    PrintStream out() {
        return out;
    }

    PrintStream err() {
        return err;
    }

    Map<String, String> environment() {
        return environment;
    }

    InstallLayout layout() {
        return layout;
    }

    Path javaHome() {
        return javaHome;
    }

    private int failed(Exception e) {
        // A job directory that is a link or another user's is a bad path the user named, refused in one line.
        boolean badInput = e instanceof IllegalArgumentException || e instanceof UnsafePathException;
        // Our own IOExceptions are sentences ("the node daemon on h2 ended before it listened"); the JDK's subclasses
        // often carry a bare path, which needs their name to make sense.
        boolean sentence = badInput || e instanceof IllegalStateException || e.getClass() == IOException.class;
        err.println("lazarus: " + (sentence ? e.getMessage() : e.toString()));
        if ("1".equals(environment.get("LAZARUS_DEBUG"))) {
            e.printStackTrace(err);
        }
        return badInput ? USAGE : 1;
    }

    private static Backend backend(String name) {
        try {
            return Backend.parse(name);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }

    /** The command's name as typed after {@code lazarus}, followed by a space (empty for the top level). */
    private static String qualifiedName(CommandLine commandLine) {
        String name = commandLine.getCommandSpec().qualifiedName(" ");
        String sub = name.startsWith("lazarus") ? name.substring("lazarus".length()).strip() : name;
        return sub.isEmpty() ? "" : sub + " ";
    }
}
