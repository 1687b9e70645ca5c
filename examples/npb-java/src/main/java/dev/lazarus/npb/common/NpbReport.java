package dev.lazarus.npb.common;

import dev.lazarus.verification.Verdict;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The familiar NPB closing report, printed by rank 0.
 *
 * @param kernel        two-letter kernel name, e.g. {@code CG}
 * @param problemClass  the class that ran
 * @param size          the problem size as NPB prints it, e.g. {@code 1400} or {@code 64x64x64}
 * @param iterations    main-loop iterations
 * @param seconds       timed seconds (the slowest rank's)
 * @param processes     number of ranks
 * @param mops          total Mop/s
 * @param operationType e.g. {@code floating point} or {@code keys ranked}
 * @param verdict       the verification outcome
 * @param backend       the MPI backend that ran
 */
public record NpbReport(String kernel, ProblemClass problemClass, String size, int iterations, double seconds,
                        int processes, double mops, String operationType, Verdict verdict, String backend) {

    /** Prints the report in NPB's layout. */
    public void print(PrintStream out) {
        StringBuilder b = new StringBuilder(1024);
        b.append("\n\n ").append(kernel).append(" Benchmark Completed.\n");
        line(b, "Class", problemClass.name());
        line(b, "Size", size);
        line(b, "Iterations", Integer.toString(iterations));
        line(b, "Time in seconds", String.format(Locale.ROOT, "%.2f", seconds));
        line(b, "Total processes", Integer.toString(processes));
        line(b, "Mop/s total", String.format(Locale.ROOT, "%.2f", mops));
        line(b, "Mop/s/process", String.format(Locale.ROOT, "%.2f", mops / processes));
        line(b, "Operation type", operationType);
        line(b, "Verification", verdict.accepted() ? "SUCCESSFUL" : "UNSUCCESSFUL");
        line(b, "Verdict", verdict.reason());
        line(b, "Version", "3.4 (Lazarus Java)");
        line(b, "MPI backend", backend);
        out.print(b);
        out.println();
        out.flush();
    }

    private static void line(StringBuilder b, String key, String value) {
        // NPB right-aligns values in 24 columns; longer values (the verdict's reason) just run on.
        b.append(' ').append(String.format(Locale.ROOT, "%-16s= %24s", key, value)).append('\n');
    }
}
