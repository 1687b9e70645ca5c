package dev.lazarus.recovery.policy.failure;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The path chosen for one failure, with every feasible path it was weighed against.
 *
 * @param facts   what was known
 * @param mode    how the choice was made
 * @param chosen  the path the relaunch takes
 * @param ranked  every feasible path, cheapest first
 */
public record RecoveryDecision(FailureFacts facts, RecoveryMode mode, CostedPath chosen, List<CostedPath> ranked) {

    public RecoveryDecision {
        ranked = List.copyOf(ranked);
    }

    /** @return one line with the failure, the numbers of every path and the choice */
    public String logLine() {
        String paths = ranked.stream().map(CostedPath::toString).collect(Collectors.joining(" < "));
        String why = mode == RecoveryMode.AUTO ? "cheapest" : "--recovery " + mode;
        return String.format(Locale.ROOT, "%s (%s) at iteration %d of %d: %s -> %s [%s]",
                facts.failure().description(), facts.where(), facts.reachedIteration(), facts.iterations(), paths,
                chosen.name(), why);
    }
}
