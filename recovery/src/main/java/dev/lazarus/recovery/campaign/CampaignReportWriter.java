package dev.lazarus.recovery.campaign;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.lazarus.recovery.crash.CacheConfig;
import dev.lazarus.recovery.selection.CrashTestOutcome;
import dev.lazarus.recovery.selection.ObjectCorrelation;
import dev.lazarus.recovery.selection.PlannedRegion;

import java.io.IOException;
import java.nio.file.Path;

/** Writes a campaign's {@code report.json}. Field names are the ones the issue and README document. */
final class CampaignReportWriter {
    private CampaignReportWriter() {
    }

    /**
     * @param cache     the hierarchy the crash tests modelled
     * @param footprint the application's data-object bytes the cache was scaled to, or 0 if it was not scaled
     */
    static void write(Campaign.Report report, double seconds, CacheConfig cache, long footprint, Path file)
            throws IOException {
        try (JsonGenerator json = new JsonFactory().createGenerator(file.toFile(), JsonEncoding.UTF8)) {
            json.useDefaultPrettyPrinter();
            json.writeStartObject();
            json.writeStringField("application", report.application());
            json.writeObjectFieldStart("recomputability");
            for (Campaign.Phase phase : phases(report)) {
                json.writeNumberField(phase.name(), phase.recomputability());
            }
            json.writeEndObject();
            json.writeObjectFieldStart("outcomes");
            for (Campaign.Phase phase : phases(report)) {
                json.writeObjectFieldStart(phase.name());
                for (CrashTestOutcome o : CrashTestOutcome.values()) {
                    json.writeNumberField(o.name(), phase.outcomes().get(o));
                }
                json.writeEndObject();
            }
            json.writeEndObject();
            writeCorrelations(json, report);
            writePlan(json, report);
            json.writeObjectFieldStart("tau");
            json.writeNumberField("value", report.tau().value());
            json.writeBooleanField("reachable", report.tau().reachable());
            json.writeNumberField("mtbf_seconds", report.settings().mtbfSeconds());
            json.writeNumberField("checkpoint_seconds", report.settings().checkpointSeconds());
            json.writeBooleanField("cleared_by_plan", report.plan().recomputability() > report.tau().value());
            json.writeEndObject();
            json.writeObjectFieldStart("regions");
            for (int k = 0; k < report.regions().size(); k++) {
                json.writeNumberField(report.regions().get(k), report.regionShares()[k]);
            }
            json.writeEndObject();
            json.writeObjectFieldStart("cache");
            json.writeStringField("spec", cache.toSpec());
            json.writeBooleanField("scaled_to_footprint", footprint > 0);
            if (footprint > 0) {
                json.writeNumberField("footprint_bytes", footprint);
            }
            json.writeEndObject();
            json.writeNumberField("tests", report.testsRun());
            json.writeArrayFieldStart("phases_run");
            for (String phase : report.phasesRun()) {
                json.writeString(phase);
            }
            json.writeEndArray();
            json.writeNumberField("seconds", seconds);
            json.writeNumberField("seed", report.settings().seed());
            json.writeEndObject();
        }
    }

    static Campaign.Phase[] phases(Campaign.Report report) {
        return new Campaign.Phase[] {report.none(), report.objects(), report.plan(), report.best()};
    }

    private static void writeCorrelations(JsonGenerator json, Campaign.Report report) throws IOException {
        json.writeArrayFieldStart("critical_objects");
        for (ObjectCorrelation c : report.correlations()) {
            json.writeStartObject();
            json.writeStringField("name", c.name());
            json.writeNumberField("mean_inconsistent_rate", report.meanInconsistentRates().getOrDefault(c.name(), 0.0));
            writeNumberOrNull(json, "rs", c.spearman());
            writeNumberOrNull(json, "p", c.pValue());
            json.writeBooleanField("critical", c.critical());
            json.writeStringField("verdict", c.verdict().name());
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    private static void writePlan(JsonGenerator json, Campaign.Report report) throws IOException {
        json.writeObjectFieldStart("plan");
        json.writeArrayFieldStart("critical");
        for (String name : report.persistencePlan().critical()) {
            json.writeString(name);
        }
        json.writeEndArray();
        json.writeArrayFieldStart("regions");
        for (PlannedRegion region : report.selection().regions()) {
            json.writeStartObject();
            json.writeStringField("name", region.name());
            json.writeNumberField("every", region.interval());
            json.writeNumberField("predicted_recomputability", region.recomputability());
            json.writeNumberField("overhead", region.overhead());
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeNumberField("predicted_recomputability", report.selection().predictedRecomputability());
        json.writeNumberField("predicted_overhead", report.selection().overhead());
        json.writeNumberField("overhead_budget", report.selection().overheadBudget());
        json.writeNumberField("run_seconds", report.timing().runSeconds());
        json.writeNumberField("seconds_per_line", report.timing().secondsPerLine());
        json.writeEndObject();
    }

    private static void writeNumberOrNull(JsonGenerator json, String field, double value) throws IOException {
        if (Double.isFinite(value)) {
            json.writeNumberField(field, value);
        } else {
            json.writeNullField(field);
        }
    }
}
