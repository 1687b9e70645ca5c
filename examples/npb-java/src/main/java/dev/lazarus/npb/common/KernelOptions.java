package dev.lazarus.npb.common;

/**
 * Command-line options shared by the kernels: {@code --class S|W|A|B} (default S) and {@code --quiet} (only rank 0's
 * report, no per-iteration lines).
 *
 * @param problemClass the problem size class
 * @param quiet        whether to suppress per-iteration output
 */
public record KernelOptions(ProblemClass problemClass, boolean quiet) {

    /**
     * Parses kernel arguments.
     *
     * @throws IllegalArgumentException for an unknown option or a bad class, with a one-line message
     */
    public static KernelOptions parse(String kernel, String[] args) {
        ProblemClass problemClass = ProblemClass.S;
        boolean quiet = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--class", "-c" -> {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException(kernel + ": --class needs a value (S, W, A or B)");
                    }
                    problemClass = ProblemClass.parse(args[++i]);
                }
                case "--quiet", "-q" -> quiet = true;
                default -> {
                    if (args[i].startsWith("--class=")) {
                        problemClass = ProblemClass.parse(args[i].substring("--class=".length()));
                    } else {
                        throw new IllegalArgumentException(kernel + ": unknown argument '" + args[i]
                                + "' (usage: " + kernel + " [--class S|W|A|B] [--quiet])");
                    }
                }
            }
        }
        return new KernelOptions(problemClass, quiet);
    }
}
