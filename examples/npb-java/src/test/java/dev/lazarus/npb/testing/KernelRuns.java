package dev.lazarus.npb.testing;

import dev.lazarus.easycrash.EasyCrashSettings;
import dev.lazarus.easycrash.Recomputable;
import dev.lazarus.easycrash.RecomputableApplication;
import dev.lazarus.easycrash.RecomputingRun;
import dev.lazarus.mpi.Comm;

import java.io.IOException;
import java.util.function.UnaryOperator;

/**
 * Runs a kernel on one rank as a launch does ({@link RecomputingRun#runApplication}), with a test's own EasyCrash
 * settings instead of this JVM's, and optionally with the test interposed on its main loop.
 */
public final class KernelRuns {
    private KernelRuns() {
    }

    /** The exit status a launch would get: 0 if the verification accepted the result. */
    public static int status(Comm comm, RecomputableApplication kernel, EasyCrashSettings settings, String... args)
            throws IOException {
        return outcome(comm, kernel, settings, args).verdict().accepted() ? 0 : 1;
    }

    /** How the run ended. */
    public static RecomputingRun.Outcome outcome(Comm comm, RecomputableApplication kernel,
                                                 EasyCrashSettings settings, String... args) throws IOException {
        return RecomputingRun.runApplication(comm, kernel, args, settings);
    }

    /** How the run ended when the main loop runs through {@code wrap} of the prepared kernel. */
    public static RecomputingRun.Outcome outcome(Comm comm, RecomputableApplication kernel,
                                                 EasyCrashSettings settings, UnaryOperator<Recomputable> wrap,
                                                 String... args) throws IOException {
        return RecomputingRun.runApplication(comm, new Interposed(kernel, wrap), args, settings);
    }

    /** The kernel, with what {@code prepare} returns passed through {@code wrap}. */
    private record Interposed(RecomputableApplication kernel, UnaryOperator<Recomputable> wrap)
            implements RecomputableApplication {

        @Override
        public String name() {
            return kernel.name();
        }

        @Override
        public Recomputable prepare(Comm comm, String[] args) {
            return wrap.apply(kernel.prepare(comm, args));
        }

        @Override
        public void announce() {
            kernel.announce();
        }

        @Override
        public void report(RecomputingRun.Outcome outcome, double wallSeconds) {
            kernel.report(outcome, wallSeconds);
        }
    }
}
