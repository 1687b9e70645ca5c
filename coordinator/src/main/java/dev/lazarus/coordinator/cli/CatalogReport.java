package dev.lazarus.coordinator.cli;

import dev.lazarus.store.catalog.Catalog;
import dev.lazarus.store.catalog.VersionStatus;
import dev.lazarus.store.format.PageFilter;
import dev.lazarus.store.level.l2.L2Scheme;
import dev.lazarus.store.level.l2.ParityManifest;
import dev.lazarus.store.level.l2.ParityStatus;

import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

/** The versions {@code ckpt list} and {@code ckpt verify} report, as a table or as JSON. */
final class CatalogReport {

    /** One version of one job on one level. */
    record Entry(String level, String job, VersionStatus status) {
        /** @return this node's L2 parity of the version; {@link ParityStatus#NONE} on a level without parity (L3) */
        ParityStatus l2() {
            return status.l2();
        }
    }

    /** level, job, version, state, ranks, kind, pages, bytes, l2, problems */
    private static final String ROW = "%-5s %-20s %8s %-10s %7s %-5s %-8s %10s %-12s  %s%n";

    private final List<Entry> entries = new ArrayList<>();
    private final boolean verified;

    private CatalogReport(boolean verified) {
        this.verified = verified;
    }

    /**
     * @param version only this version, or null for all
     * @param verify  read every chunk and check its checksum, and the L2 parity's
     */
    static CatalogReport scan(List<CkptLevelOptions.JobLevel> levels, Long version, boolean verify)
            throws IOException {
        CatalogReport report = new CatalogReport(verify);
        for (CkptLevelOptions.JobLevel level : levels) {
            Catalog catalog = new Catalog(level.directory(), level.holdsParity());
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

    /** @return true if no reported version is damaged (versions retention was pruning do not count) */
    boolean noneDamaged() {
        return entries.stream().noneMatch(e -> e.status().damaged());
    }

    /** @return true if some version's L2 parity on this node is unusable */
    boolean anyParityDamaged() {
        return entries.stream().anyMatch(e -> e.l2().damaged());
    }

    void printTable(PrintStream out) {
        if (entries.isEmpty()) {
            out.println("no checkpoint versions found");
            return;
        }
        out.printf(ROW, "level", "job", "version", "state", "ranks", "kind", "pages", "bytes", "l2", "problems");
        for (Entry e : entries) {
            VersionStatus s = e.status();
            String state = s.retired() ? "pruning" : s.complete() ? (verified ? "verified" : "complete")
                    : "incomplete";
            if (s.unverified()) {
                state += ",unverified";
            }
            out.printf(ROW, e.level(), e.job(), s.version(), state,
                    s.ranksUsable().size() + "/" + (s.worldSize() == 0 ? "?" : s.worldSize()),
                    s.full() ? "full" : "incr", pagesCell(s.pageFilter()), bytes(s.bytes()), parityCell(e.l2()),
                    String.join("; ", s.problems()));
        }
        if (entries.stream().anyMatch(e -> e.status().pageFilter() == PageFilter.ALL_PAGES)) {
            out.println("pages all: the page pre-filter (userfaultfd + PAGEMAP_SCAN) was unavailable or off when the"
                    + " version was written, so every page was hashed; the run's log says why");
        }
    }

    /**
     * @return "parity m/n" (this node is member m, from 0, of an XOR set of n nodes and holds complete parity),
     *         "partner m/n" (the same in a partner set: it holds its left neighbour's copy), "-" (no parity), or
     *         "corrupt: reason"
     */
    static String parityCell(ParityStatus l2) {
        if (l2.damaged()) {
            return "corrupt: " + l2.problem();
        }
        if (!l2.complete()) {
            return "-";
        }
        ParityManifest manifest = l2.manifest();
        return (manifest.scheme() == L2Scheme.XOR ? "parity " : "partner ") + manifest.member() + "/"
                + manifest.setSize();
    }

    /**
     * @return "tracked" (only pages the kernel saw written were hashed), "all" (the page pre-filter was unavailable or
     *         off when the version was written: every page was hashed; the run's log says why) or "-" (not recorded)
     */
    static String pagesCell(PageFilter filter) {
        return switch (filter) {
            case TRACKED -> "tracked";
            case ALL_PAGES -> "all";
            case UNKNOWN -> "-";
        };
    }

    String json() throws IOException {
        StringWriter text = new StringWriter();
        try (JsonGenerator json = new JsonFactory().createGenerator(text)) {
            json.useDefaultPrettyPrinter();
            json.writeStartObject();
            json.writeBooleanField("data_verified", verified);
            json.writeBooleanField("all_complete", allComplete());
            json.writeBooleanField("none_damaged", noneDamaged());
            json.writeArrayFieldStart("versions");
            for (Entry e : entries) {
                VersionStatus s = e.status();
                json.writeStartObject();
                json.writeStringField("level", e.level());
                json.writeStringField("job", e.job());
                json.writeNumberField("version", s.version());
                json.writeBooleanField("complete", s.complete());
                json.writeBooleanField("retired", s.retired());
                json.writeBooleanField("unverified", s.unverified());
                json.writeNumberField("world_size", s.worldSize());
                json.writeArrayFieldStart("ranks_usable");
                for (int rank : s.ranksUsable()) {
                    json.writeNumber(rank);
                }
                json.writeEndArray();
                json.writeBooleanField("full", s.full());
                json.writeNumberField("bytes", s.bytes());
                json.writeStringField("page_filter", s.pageFilter().label());
                writeStrings(json, "problems", s.problems());
                writeParity(json, e.l2());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        return text.toString();
    }

    /**
     * Writes {@code "l2"}: {@code {"state": "none"}}, {@code {"state": "parity", "scheme", "set", "member",
     * "set_size", "members"}} (scheme {@code xor} or {@code partner}) or {@code {"state": "corrupt", "reason"}}.
     */
    private static void writeParity(JsonGenerator json, ParityStatus l2) throws IOException {
        json.writeObjectFieldStart("l2");
        json.writeStringField("state", l2.damaged() ? "corrupt" : l2.complete() ? "parity" : "none");
        if (l2.damaged()) {
            json.writeStringField("reason", l2.problem());
        } else if (l2.complete()) {
            ParityManifest manifest = l2.manifest();
            json.writeStringField("scheme", manifest.scheme().label());
            json.writeNumberField("set", manifest.setId());
            json.writeNumberField("member", manifest.member());
            json.writeNumberField("set_size", manifest.setSize());
            writeStrings(json, "members", manifest.addresses());
        }
        json.writeEndObject();
    }

    private static void writeStrings(JsonGenerator json, String field, List<String> values) throws IOException {
        json.writeArrayFieldStart(field);
        for (String value : values) {
            json.writeString(value);
        }
        json.writeEndArray();
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
