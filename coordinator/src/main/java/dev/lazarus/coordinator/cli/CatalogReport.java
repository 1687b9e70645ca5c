package dev.lazarus.coordinator.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.lazarus.store.catalog.Catalog;
import dev.lazarus.store.catalog.VersionStatus;

import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The versions {@code ckpt list} and {@code ckpt verify} report, as a table or as JSON. */
final class CatalogReport {

    /** One version of one job on one level. */
    record Entry(String level, String job, VersionStatus status) {
    }

    private final List<Entry> entries = new ArrayList<>();
    private final boolean verified;

    private CatalogReport(boolean verified) {
        this.verified = verified;
    }

    /**
     * @param version only this version, or null for all
     * @param verify  read every chunk and check its checksum
     */
    static CatalogReport scan(List<CkptLevelOptions.JobLevel> levels, Long version, boolean verify)
            throws IOException {
        CatalogReport report = new CatalogReport(verify);
        for (CkptLevelOptions.JobLevel level : levels) {
            Catalog catalog = new Catalog(level.directory());
            List<VersionStatus> statuses = version == null ? catalog.scan(verify)
                    : level.directory().versions().contains(version)
                    ? List.of(catalog.status(version, verify)) : List.of();
            for (VersionStatus status : statuses) {
                report.entries.add(new Entry(level.level(), level.directory().job(), status));
            }
        }
        return report;
    }

    List<Entry> entries() {
        return entries;
    }

    /** @return true if every reported version is complete */
    boolean allComplete() {
        return entries.stream().allMatch(e -> e.status().complete());
    }

    void printTable(PrintStream out) {
        if (entries.isEmpty()) {
            out.println("no checkpoint versions found");
            return;
        }
        out.printf("%-5s %-20s %8s %-10s %7s %-5s %10s  %s%n", "level", "job", "version", "state", "ranks", "kind",
                "bytes", "problems");
        for (Entry e : entries) {
            VersionStatus s = e.status();
            String state = s.complete() ? (verified ? "verified" : "complete") : "incomplete";
            out.printf("%-5s %-20s %8d %-10s %7s %-5s %10s  %s%n", e.level(), e.job(), s.version(), state,
                    s.ranksUsable().size() + "/" + (s.worldSize() == 0 ? "?" : s.worldSize()),
                    s.full() ? "full" : "incr", bytes(s.bytes()), String.join("; ", s.problems()));
        }
    }

    String json() throws IOException {
        StringWriter text = new StringWriter();
        try (JsonGenerator json = new JsonFactory().createGenerator(text)) {
            json.useDefaultPrettyPrinter();
            json.writeStartObject();
            json.writeBooleanField("data_verified", verified);
            json.writeBooleanField("all_complete", allComplete());
            json.writeArrayFieldStart("versions");
            for (Entry e : entries) {
                VersionStatus s = e.status();
                json.writeStartObject();
                json.writeStringField("level", e.level());
                json.writeStringField("job", e.job());
                json.writeNumberField("version", s.version());
                json.writeBooleanField("complete", s.complete());
                json.writeNumberField("world_size", s.worldSize());
                json.writeArrayFieldStart("ranks_usable");
                for (int rank : s.ranksUsable()) {
                    json.writeNumber(rank);
                }
                json.writeEndArray();
                json.writeBooleanField("full", s.full());
                json.writeNumberField("bytes", s.bytes());
                json.writeArrayFieldStart("problems");
                for (String problem : s.problems()) {
                    json.writeString(problem);
                }
                json.writeEndArray();
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        return text.toString();
    }

    static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double value = n;
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
    }
}
