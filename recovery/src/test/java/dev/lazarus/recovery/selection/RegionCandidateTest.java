package dev.lazarus.recovery.selection;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RegionCandidateTest {

    @Test
    void eq5InterpolatesBetweenBestAndBaseline() {
        RegionCandidate region = new RegionCandidate("R3", 0.25, 0.2, 0.8, 100, true);
        assertEquals(0.8, region.recomputabilityAt(1), 1e-15, "x = 1 is c_k^max");
        assertEquals(0.5, region.recomputabilityAt(2), 1e-15, "(0.8 - 0.2) / 2 + 0.2");
        assertEquals(0.35, region.recomputabilityAt(4), 1e-15);
        assertEquals(0.2 + 0.6 / 1e9, region.recomputabilityAt(1_000_000_000L), 1e-18, "x -> infinity is c_k");
        RegionCandidate worse = new RegionCandidate("noisy", 0.25, 0.5, 0.3, 10, true);
        assertEquals(0.4, worse.recomputabilityAt(2), 1e-15, "a noisy c_k^max below c_k interpolates the same way");
    }

    @Test
    void loopsOfferPowersOfTwoUpToTheirPointsOthersOnlyOne() {
        assertEquals(List.of(1L, 2L, 4L, 8L), new RegionCandidate("a", 1, 0, 1, 12, true).intervals());
        assertEquals(List.of(1L, 2L, 4L, 8L, 16L), new RegionCandidate("a", 1, 0, 1, 16, true).intervals());
        assertEquals(List.of(1L), new RegionCandidate("a", 1, 0, 1, 1, true).intervals());
        assertEquals(List.of(1L), new RegionCandidate("b", 1, 0, 1, 400, false).intervals());
        assertEquals(63, new RegionCandidate("c", 1, 0, 1, Long.MAX_VALUE, true).intervals().size());
    }

    @Test
    void operationsAndOverheadScaleWithOneOverX() {
        RegionCandidate region = new RegionCandidate("R1", 0.5, 0.1, 0.9, 300, true);
        assertEquals(300.0, region.operationsAt(1));
        assertEquals(75.0, region.operationsAt(4));
        assertEquals(37.5, region.operationsAt(8), "not rounded: the average rate");
        PersistenceCost cost = new PersistenceCost(1e-7, 10_000, false); // 1 ms per operation
        // l(4) = 75 operations * 1 ms / 100 s = 0.00075.
        assertEquals(0.00075, RegionSelector.overhead(region, 4, cost, 100.0), 1e-15);
    }

    @Test
    void combinesTheTwoCampaignsStats() {
        RegionCandidate region = RegionCandidate.of("R2", new RegionStats(1, 0.4, 10, 3),
                new RegionStats(1, 0.35, 20, 18), 50, true);
        assertEquals(new RegionCandidate("R2", 0.4, 0.3, 0.9, 50, true), region);
        assertEquals("campaign stats are for different regions: baseline=1, persisted=2",
                assertThrows(IllegalArgumentException.class, () -> RegionCandidate.of("R2",
                        new RegionStats(1, 0.4, 10, 3), new RegionStats(2, 0.3, 1, 1), 5, true)).getMessage());
    }

    @Test
    void rejectsBadInputWithExactMessages() {
        assertEquals("best must be in [0, 1]: region=R1, best=1.2",
                assertThrows(IllegalArgumentException.class,
                        () -> new RegionCandidate("R1", 0.5, 0.1, 1.2, 10, true)).getMessage());
        assertEquals("weight must be in [0, 1]: region=R1, weight=-0.1",
                assertThrows(IllegalArgumentException.class,
                        () -> new RegionCandidate("R1", -0.1, 0.1, 0.2, 10, true)).getMessage());
        assertEquals("persistencePoints must be >= 1: region=R1, persistencePoints=0",
                assertThrows(IllegalArgumentException.class,
                        () -> new RegionCandidate("R1", 0.5, 0.1, 0.2, 0, true)).getMessage());
        assertEquals("region name must not be blank: name= ",
                assertThrows(IllegalArgumentException.class,
                        () -> new RegionCandidate(" ", 0.5, 0.1, 0.2, 1, true)).getMessage());
        RegionCandidate region = new RegionCandidate("R1", 0.5, 0.1, 0.2, 10, true);
        assertEquals("persistence interval must be >= 1: region=R1, interval=0",
                assertThrows(IllegalArgumentException.class, () -> region.recomputabilityAt(0)).getMessage());
    }
}
