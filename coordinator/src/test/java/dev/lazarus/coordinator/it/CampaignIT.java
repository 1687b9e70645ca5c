package dev.lazarus.coordinator.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.lazarus.testing.LazarusProcess;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
        // IS at class S has critical objects (its key array and verification slots), so every phase has work to do.
        LazarusProcess.Result result = LazarusProcess.run(Duration.ofMinutes(8), "campaign", "npb.IS",
                "--class", "S", "--tests", "24", "--seed", "5", "--out", out.toString(), "--json");
        assertEquals(0, result.exitStatus(), result.output());
        String report = Files.readString(out.resolve("report.json"), StandardCharsets.UTF_8);
        for (String field : new String[] {"\"recomputability\"", "\"none\"", "\"objects\"", "\"plan\"", "\"best\"",
            "\"outcomes\"", "\"S1\"", "\"S4\"", "\"critical_objects\"", "\"tau\"", "\"tests\"", "\"phases_run\"",
            "\"seconds\"", "\"name\" : \"keyArray\""}) {
            assertTrue(report.contains(field), field + " missing in " + report);
        }
        List<String> phasesRun = phasesRun(report);
        assertEquals("none", phasesRun.getFirst(), report);
        assertTrue(phasesRun.containsAll(List.of("best", "objects")), "critical objects found, phases " + phasesRun);
        assertEquals(24 * phasesRun.size(), number(report, "tests"), report);
        assertTrue(result.output().contains("phase 3/4"), result.output());
        byte[] png = Files.readAllBytes(out.resolve("chart.png"));
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, java.util.Arrays.copyOf(png, 4));

        Path plan = out.resolve("plan.properties");
        String planText = Files.readString(plan);
        assertTrue(planText.contains("app=npb.IS"), planText);
        assertTrue(Pattern.compile("(?m)^critical=\\w+").matcher(planText).find(), planText);
        LazarusProcess.Result production = LazarusProcess.run(Duration.ofMinutes(3), "run", "--np", "2",
                "--plan", plan.toString(), "--job", "campaign-it", "npb.IS", "--class", "S", "--quiet");
        assertEquals(0, production.exitStatus(), production.output());
        assertTrue(production.output().contains("Verification    =               SUCCESSFUL"), production.output());

        LazarusProcess.Result mismatch = LazarusProcess.run(Duration.ofMinutes(3), "run", "--np", "1",
                "--plan", plan.toString(), "--job", "campaign-it-cg", "npb.CG", "--class", "S", "--quiet");
        assertEquals(2, mismatch.exitStatus(), mismatch.output());
        assertTrue(mismatch.output().contains("lazarus: plan is for application npb.IS, not npb.CG"),
                mismatch.output());
    }

    private static List<String> phasesRun(String report) {
        Matcher array = Pattern.compile("\"phases_run\" : \\[([^]]*)]").matcher(report);
        assertTrue(array.find(), report);
        return Pattern.compile("\"(\\w+)\"").matcher(array.group(1)).results().map(m -> m.group(1)).toList();
    }

    private static int number(String report, String field) {
        Matcher value = Pattern.compile("\"" + field + "\" : (\\d+)").matcher(report);
        assertTrue(value.find(), field + " missing in " + report);
        return Integer.parseInt(value.group(1));
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
