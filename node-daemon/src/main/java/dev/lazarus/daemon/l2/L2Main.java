package dev.lazarus.daemon.l2;

import dev.lazarus.store.level.l2.L2Scheme;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The L2 level as a command, for the launcher, scripts and tests:
 *
 * <pre>
 *   serve   --bind ADDR:PORT [--allow-wildcard]                           serve this node's L2 files until killed
 *   encode  --version V --members A:P,B:P,... --self I [--set-size N]     write this node's parity of V
 *   rebuild --version V --members A:P,B:P,... --self I [--set-size N]     restore this node's files of V
 *   common: --job JOB --secret FILE [--l1 DIR] [--scheme xor|partner] [--connect-timeout-ms N] [--io-timeout-ms N]
 * </pre>
 *
 * Results and errors are one line each (stdout and stderr). Exit status: 0 done, 1 failed, 2 bad arguments, 3
 * unrecoverable at L2 (fall back to L3).
 */
public final class L2Main {
    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int USAGE = 2;
    public static final int UNRECOVERABLE = 3;

    private static final String USAGE_TEXT = "usage: l2 serve --bind ADDR:PORT | encode --version V --members"
            + " A:P,B:P,... --self I | rebuild --version V --members ... --self I; with --job JOB --secret FILE"
            + " [--l1 DIR] [--set-size N] [--scheme xor|partner] [--allow-wildcard] [--connect-timeout-ms N]"
            + " [--io-timeout-ms N]";

    private L2Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err, System.getenv()));
    }

    /** Runs one command; {@code serve} returns only when the process is shut down. @return the exit status */
    public static int run(String[] args, PrintStream out, PrintStream err, Map<String, String> env) {
        if (args.length == 0 || !List.of("serve", "encode", "rebuild").contains(args[0])) {
            err.println(USAGE_TEXT);
            return USAGE;
        }
        L2Context context = new L2Context().log(line -> err.println(line));
        long version;
        try {
            version = parse(args, context);
            context.environment(env).conclude();
        } catch (IllegalArgumentException | UncheckedIOException | IllegalStateException e) {
            err.println("l2: " + e.getMessage());
            return USAGE;
        }
        try {
            switch (args[0]) {
                case "serve" -> serve(context, out);
                case "encode" -> out.println(new L2Encoder(context).encode(requireVersion(version)).describe());
                default -> out.println(new L2Rebuilder(context).rebuild(requireVersion(version)).describe());
            }
            return OK;
        } catch (UnrecoverableAtL2Exception e) {
            err.println("l2: " + e.getMessage());
            return UNRECOVERABLE;
        } catch (IllegalArgumentException | IllegalStateException e) {
            err.println("l2: " + e.getMessage());
            return USAGE;
        } catch (IOException | RuntimeException e) {
            err.println("l2: " + args[0] + " failed: " + e.getMessage());
            return FAILED;
        }
    }

    /** Applies the options to the context; @return the version, or -1 if none was given */
    private static long parse(String[] args, L2Context context) {
        long version = -1;
        for (int i = 1; i < args.length; i++) {
            String option = args[i];
            if (option.equals("--allow-wildcard")) {
                context.allowWildcard(true);
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + option + " needs a value; " + USAGE_TEXT);
            }
            String value = args[++i];
            switch (option) {
                case "--bind" -> context.bind(value);
                case "--l1" -> context.l1Root(Path.of(value));
                case "--job" -> context.job(value);
                case "--secret" -> context.secretFile(Path.of(value));
                case "--members" -> context.members(List.of(value.split(",")));
                case "--self" -> context.self(integer(option, value));
                case "--set-size" -> context.setSize(integer(option, value));
                case "--scheme" -> context.scheme(L2Scheme.parse(value));
                case "--connect-timeout-ms" -> context.connectTimeoutMillis(integer(option, value));
                case "--io-timeout-ms" -> context.ioTimeoutMillis(integer(option, value));
                case "--version" -> version = longValue(option, value);
                default -> throw new IllegalArgumentException("unknown option " + option + "; " + USAGE_TEXT);
            }
        }
        return version;
    }

    private static int integer(String option, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option " + option + "=" + value + " is not an integer");
        }
    }

    private static long longValue(String option, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option " + option + "=" + value + " is not an integer");
        }
    }

    private static long requireVersion(long version) {
        if (version < 0) {
            throw new IllegalArgumentException("--version V is required (0 or more)");
        }
        return version;
    }

    private static void serve(L2Context context, PrintStream out) throws IOException {
        L2Server server = L2Server.start(context);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }));
        out.println("l2: serving job=" + context.job() + " l1=" + context.l1Root() + " address="
                + Endpoints.format(server.address()));
        out.flush();
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
