package dev.lazarus.coordinator.state;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** A job's state for people (a table) and for programs (one JSON document of the same records). */
public final class StateReport {
    private final StateSnapshot snapshot;

    public StateReport(StateSnapshot snapshot) {
        this.snapshot = snapshot;
    }

    /** @return the state as text: the job, its statistics, its failures and decisions, its catalog */
    public String table() {
        StringBuilder b = new StringBuilder();
        snapshot.job().ifPresent(job -> b.append(String.format(Locale.ROOT,
                "job %s: %s %s on %d ranks (%s), %d launches, %s%n", job.job(), job.application(),
                String.join(" ", job.arguments()), job.ranks(), String.join(", ", job.nodes()), job.launches(),
                job.state())));
        snapshot.stats().ifPresent(stats -> b.append(String.format(Locale.ROOT,
                "failures %d, MTBF %s, NVM restarts %d accepted of %d, iteration %s, running %.1f s%n",
                stats.failures(), stats.mtbfSeconds() == null ? "-" : String.format(Locale.ROOT, "%.1f s",
                        stats.mtbfSeconds()), stats.nvmAccepted(), stats.nvmAttempts(),
                stats.iterationSeconds() == null ? "-" : String.format(Locale.ROOT, "%.3f ms",
                        stats.iterationSeconds() * 1e3), stats.runningSeconds())));
        snapshot.stats().map(StateRecords.Stats::restoreBytesPerSecond).filter(m -> m != null && !m.isEmpty())
                .ifPresent(measured -> b.append("restores measured: ").append(measured.entrySet().stream()
                        .sorted(Map.Entry.comparingByKey()).map(e -> String.format(Locale.ROOT, "%s %.1f MB/s",
                                e.getKey(), e.getValue() / 1e6)).collect(Collectors.joining(", ")))
                        .append(System.lineSeparator()));
        b.append(String.format("%nevents:%n"));
        for (StateRecords.Event event : snapshot.events()) {
            // A node daemon's events belong to no launch (it outlives them): launch 0.
            b.append(String.format(Locale.ROOT, "  %tF %<tT  %-10s %-8s %s%n", event.timeMillis(),
                    event.launch() == 0 ? "" : "launch " + event.launch(), event.kind(), event.text()));
        }
        if (!snapshot.catalog().isEmpty()) {
            b.append(String.format("%ncatalog (as the last decision saw it):%n"));
            for (StateRecords.Version version : snapshot.catalog()) {
                b.append(String.format(Locale.ROOT, "  %s v%-8d %10.1f MB  restore %.3f s%s%n", version.level(),
                        version.version(), version.bytes() / 1e6, version.restoreSeconds(),
                        version.verified() ? "" : "  unverified"));
            }
        }
        for (String skipped : snapshot.skipped()) {
            b.append(String.format("skipped: %s%n", skipped));
        }
        return b.toString().stripTrailing();
    }

    /** @return the state as one JSON document: job, stats, ranks, catalog, events, skipped */
    public String json() {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("job", snapshot.job().orElse(null));
        document.put("stats", snapshot.stats().orElse(null));
        document.put("ranks", snapshot.ranks());
        document.put("catalog", snapshot.catalog());
        document.put("events", snapshot.events());
        document.put("skipped", snapshot.skipped());
        return StateJson.pretty(document);
    }
}
