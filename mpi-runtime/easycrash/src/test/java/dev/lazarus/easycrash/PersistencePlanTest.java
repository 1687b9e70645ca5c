package dev.lazarus.easycrash;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PersistencePlanTest {
    private static final List<String> REGIONS = List.of("conjGrad", "computeNorms", "updateZeta", "normalizeX");

    @TempDir
    Path dir;

    @Test
    void writtenPlanReadsBackEqual() throws Exception {
        PersistencePlan plan = new PersistencePlan("npb.CG", REGIONS, List.of("p", "q"), new int[] {1, 0, 0, 4});
        Path file = dir.resolve("plan.properties");
        plan.write(file, "test");
        assertEquals(plan, PersistencePlan.read(file));
        assertTrue(Files.readString(file).contains("every.normalizeX=4"));
    }

    @Test
    void aCampaignsRecomputabilityTravelsWithThePlan() throws Exception {
        PersistencePlan plan = new PersistencePlan("npb.CG", REGIONS, List.of("p"), new int[] {1, 0, 0, 0})
                .withRecomputability(0.8125);
        Path file = dir.resolve("measured.properties");
        plan.write(file, "test");
        assertTrue(Files.readString(file).contains("recomputability=0.8125\n"), Files.readString(file));
        assertEquals(plan, PersistencePlan.read(file));
        assertEquals(0.8125, PersistencePlan.read(file).recomputability());
        Path byHand = Files.writeString(dir.resolve("by-hand"), "app=npb.CG\nregions=a\n");
        assertTrue(Double.isNaN(PersistencePlan.read(byHand).recomputability()), "a plan without one: unknown");
        Path bad = Files.writeString(dir.resolve("bad-r"), "app=npb.CG\nregions=a\nrecomputability=high\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PersistencePlan.read(bad)).getMessage()
                .endsWith("recomputability=high must be a number from 0 to 1"));
    }

    @Test
    void planForAnotherApplicationOrRegionsIsRefusedInOneLine() {
        PersistencePlan plan = new PersistencePlan("npb.CG", REGIONS, List.of("p"), new int[4]);
        assertEquals("plan is for application npb.CG, not npb.MG", assertThrows(IllegalArgumentException.class,
                () -> plan.checkMatches("npb.MG", REGIONS, List.of("p"))).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> plan.checkMatches("npb.CG", List.of("a", "b"), List.of("p"))).getMessage()
                .startsWith("plan regions [conjGrad, computeNorms, updateZeta, normalizeX] do not match"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> plan.checkMatches("npb.CG", REGIONS, List.of("x"))).getMessage()
                .startsWith("plan names critical object 'p', which is not a candidate object of npb.CG"));
    }

    @Test
    void malformedPlanFilesAreRefusedInOneLine() throws Exception {
        Path missingApp = Files.writeString(dir.resolve("a"), "regions=r1\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PersistencePlan.read(missingApp))
                .getMessage().endsWith("has no app="));
        Path badEvery = Files.writeString(dir.resolve("b"), "app=x\nregions=r1\nevery.r1=-2\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PersistencePlan.read(badEvery))
                .getMessage().endsWith("every.r1=-2 must be a non-negative integer"));
        Path unknownRegion = Files.writeString(dir.resolve("c"), "app=x\nregions=r1\nevery.r9=1\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PersistencePlan.read(unknownRegion))
                .getMessage().endsWith("every.r9 names no region of [r1]"));
        Path huge = Files.write(dir.resolve("d"), new byte[100_000]);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PersistencePlan.read(huge))
                .getMessage().contains("is larger than"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PersistencePlan.read(dir.resolve("none")))
                .getMessage().startsWith("cannot read plan file"));
    }
}
