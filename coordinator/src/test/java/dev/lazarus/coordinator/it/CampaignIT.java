package dev.lazarus.coordinator.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A small real campaign through {@code ./lazarus campaign}: the report has every documented field, the chart is a
 * PNG, the plan drives a production run, and a plan for another application is refused in one line.
 */
class CampaignIT {

    @TempDir
    Path out;

    @Test
    void campaignWritesReportChartAndAPlanThatProductionRunsAccept() throws Exception {
        LazarusProcess.Result result = LazarusProcess.run(Duration.ofMinutes(8), "campaign", "solver.HEAT",
                "--class", "S", "--tests", "24", "--seed", "5", "--cache", "4K:4,16K:8,32K:8",
                "--out", out.toString(), "--json");
        assertEquals(0, result.exitStatus(), result.output());
        String report = Files.readString(out.resolve("report.json"), StandardCharsets.UTF_8);
        for (String field : new String[] {"\"recomputability\"", "\"none\"", "\"objects\"", "\"plan\"", "\"best\"",
            "\"outcomes\"", "\"S1\"", "\"S4\"", "\"critical_objects\"", "\"tau\"", "\"tests\" : 96",
            "\"seconds\"", "\"name\" : \"u\""}) {
            assertTrue(report.contains(field), field + " missing in " + report);
        }
        assertTrue(result.output().contains("phase 4/4") || report.contains("\"critical\" : [ ]"), result.output());
        byte[] png = Files.readAllBytes(out.resolve("chart.png"));
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, java.util.Arrays.copyOf(png, 4));

        Path plan = out.resolve("plan.properties");
        assertTrue(Files.readString(plan).contains("app=solver.HEAT"));
        LazarusProcess.Result production = LazarusProcess.run(Duration.ofMinutes(3), "run", "--np", "2",
                "--plan", plan.toString(), "--job", "campaign-it", "solver.HEAT", "--class", "S", "--quiet");
        assertEquals(0, production.exitStatus(), production.output());
        assertTrue(production.output().contains("Verification    =               SUCCESSFUL"), production.output());

        LazarusProcess.Result mismatch = LazarusProcess.run(Duration.ofMinutes(3), "run", "--np", "1",
                "--plan", plan.toString(), "--job", "campaign-it-cg", "npb.CG", "--class", "S", "--quiet");
        assertEquals(2, mismatch.exitStatus(), mismatch.output());
        assertTrue(mismatch.output().contains("lazarus: plan is for application solver.HEAT, not npb.CG"),
                mismatch.output());
    }

    @Test
    void unknownOrUntestableApplicationsAreRefused() throws Exception {
        LazarusProcess.Result unknown = LazarusProcess.run(Duration.ofMinutes(2), "campaign", "npb.NOPE",
                "--tests", "5", "--out", out.toString());
        assertEquals(2, unknown.exitStatus(), unknown.output());
        assertTrue(unknown.output().contains("unknown application 'npb.NOPE'"), unknown.output());
        LazarusProcess.Result badCache = LazarusProcess.run(Duration.ofMinutes(2), "campaign", "solver.HEAT",
                "--cache", "lots", "--out", out.toString());
        assertEquals(2, badCache.exitStatus(), badCache.output());
        assertTrue(badCache.output().startsWith("lazarus campaign: ") || badCache.output().contains("\nlazarus"
                + " campaign: "), badCache.output());
    }
}
