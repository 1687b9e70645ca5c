package dev.lazarus.coordinator.job;

import dev.lazarus.coordinator.launch.LaunchOutcome;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The lines that end a run that had failures: launches, failures by class, the path taken after each, how long the
 * job did no work after each (its downtime: from the failed launch's last sign of life to the next launch's main
 * loop), the work each cost again, and how the last launch ended.
 *
 * @param text the lines, without a final newline
 */
record JobSummary(String text) {

    static JobSummary of(JobHistory history, LaunchOutcome last) {
        StringBuilder b = new StringBuilder();
        Map<String, Integer> byClass = new TreeMap<>();
        history.failures().forEach(f -> byClass.merge(f.failureClass(), 1, Integer::sum));
        double totalLost = history.failures().stream().mapToDouble(JobHistory.Failure::lostSeconds).sum();
        double totalDown = history.failures().stream().mapToDouble(JobHistory.Failure::downSeconds)
                .filter(Double::isFinite).sum();
        b.append(String.format(Locale.ROOT, "lazarus: summary: %d launches, %d failures %s, %.1f s of work done"
                        + " again, %.1f s down; result: %s", history.launches().size(), history.failures().size(),
                byClass, totalLost, totalDown, result(last)));
        for (JobHistory.Failure failure : history.failures()) {
            b.append(String.format(Locale.ROOT, "%nlazarus:   launch %d: %s -> %s, decided in %.0f ms, %s, %.1f s"
                            + " of work again", failure.launch(), failure.failureClass(),
                    failure.decision() == null ? "relaunch as before" : failure.decision().chosen().name(),
                    failure.decisionMillis(), Double.isFinite(failure.downSeconds())
                            ? String.format(Locale.ROOT, "back at work after %.1f s", failure.downSeconds())
                            : "never back at work", failure.lostSeconds()));
        }
        return new JobSummary(b.toString());
    }

    /** @return how the last launch ended, for the summary and the job's state */
    static String result(LaunchOutcome last) {
        return switch (last.kind()) {
            case SUCCEEDED -> "verified (exit status 0)";
            case FAILED -> "not verified or refused (exit status " + last.status() + ")";
            default -> last.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ') + " (exit status "
                    + last.status() + ")";
        };
    }
}
