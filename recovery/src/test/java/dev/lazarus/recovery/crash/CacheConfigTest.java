package dev.lazarus.recovery.crash;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The paper's Table 4, the spec format and every way a configuration is refused. */
class CacheConfigTest {

    @Test
    void paperTable4HasTheSetCountsOfItsSizes() {
        CacheConfig config = CacheConfig.paperTable4();
        assertEquals(3, config.depth());
        assertEquals(64, config.lineSize());
        assertEquals(64, config.sets(0));
        assertEquals(1365, config.sets(1)); // 1 MiB / (64 * 12) = 1365.33: whole sets only
        assertEquals(28672, config.sets(2)); // 19.25 MiB / (64 * 11): not a power of two
        assertEquals(28672 * 11, config.lines(2));
    }

    @Test
    void parseReadsThePaperSpecAndFractionalSizes() {
        assertEquals(CacheConfig.paperTable4(), CacheConfig.parse("32K:8,1M:12,19712K:11"));
        assertEquals(CacheConfig.paperTable4(), CacheConfig.parse(" 32k:8 , 1m:12 , 19.25M:11 "));
        assertEquals("32K:8,1M:12,19712K:11", CacheConfig.paperTable4().toSpec());
        assertEquals(List.of(new CacheConfig.Level(192, 1)), CacheConfig.parse("192:1").levels());
    }

    @Test
    void scaledToShrinksEveryLevelAlikeSoTheLastHoldsAQuarterOfTheFootprint() {
        CacheConfig table4 = CacheConfig.paperTable4();
        long footprint = 8L << 20; // 8 MiB: L3 must hold at most 2 MiB, 2/19.25 of its sets
        CacheConfig scaled = table4.scaledTo(footprint);
        assertEquals(List.of(8, 12, 11), scaled.levels().stream().map(CacheConfig.Level::associativity).toList());
        assertEquals(Math.round(28672 * 2 / 19.25), scaled.sets(2));
        assertEquals(Math.round(1365 * 2 / 19.25), scaled.sets(1));
        assertEquals(Math.round(64 * 2 / 19.25), scaled.sets(0));
        assertTrue(scaled.levels().getLast().sizeBytes() * CacheConfig.FOOTPRINT_PER_LLC <= footprint + 64 * 11);
    }

    @Test
    void scaledToKeepsEveryLevelInclusiveAndLeavesLargeFootprintsAlone() {
        CacheConfig table4 = CacheConfig.paperTable4();
        CacheConfig tiny = table4.scaledTo(4096);
        // One set each, except that L3 needs two 11-way sets to include L2's 12 lines.
        assertEquals(List.of(1, 1, 2), List.of(tiny.sets(0), tiny.sets(1), tiny.sets(2)));
        assertEquals(List.of(512L, 768L, 1408L), tiny.levels().stream().map(CacheConfig.Level::sizeBytes).toList());
        assertSame(table4, table4.scaledTo(4 * 19712L * 1024));
        assertSame(table4, table4.scaledTo(1L << 40));
        assertThrows(IllegalArgumentException.class, () -> table4.scaledTo(0));
    }

    private static String parseError(String spec) {
        return assertThrows(IllegalArgumentException.class, () -> CacheConfig.parse(spec)).getMessage();
    }

    @Test
    void parseErrorsAreOneLineAndNameThePartAtFault() {
        assertEquals("cache spec is empty: expected SIZE:WAYS[,SIZE:WAYS...], e.g. 32K:8,1M:12,19712K:11",
                parseError(" "));
        assertEquals("cache spec '32K' level L1: expected SIZE:WAYS, e.g. 32K:8, got '32K'", parseError("32K"));
        assertEquals("cache spec '32K:8,' level L2: expected SIZE:WAYS, e.g. 32K:8, got ''", parseError("32K:8,"));
        assertEquals("cache spec '32Q:8' level L1: size='32Q' is not a byte count (digits with an optional K, M or G)",
                parseError("32Q:8"));
        assertEquals("cache spec '32K:x' level L1: ways='x' is not an integer", parseError("32K:x"));
        assertEquals("cache spec '0.3K:1' level L1: size='0.3K' is not a whole number of bytes",
                parseError("0.3K:1"));
        assertEquals("cache level L1 (size=32768, ways=0): ways must be positive", parseError("32K:0"));
        assertEquals("cache level L1 (size=100, ways=1): size must be a positive multiple of lineSize=64",
                parseError("100:1"));
        assertEquals("cache level L1 (size=64, ways=2): size is below one set of ways x lineSize=128 bytes",
                parseError("64:2"));
        assertEquals("cache level L2 (size=16384, ways=4): lines=256 is fewer than the 512 lines of L1; an inclusive "
                + "level must hold every line of the levels above it", parseError("32K:8,16K:4"));
        for (String spec : List.of("32K:8,1M", "1M:-1", "K:8")) {
            String message = parseError(spec);
            assertEquals(-1, message.indexOf('\n'), message);
        }
    }

    @Test
    void constructorRefusesBadLineSizesAndEmptyHierarchies() {
        assertEquals("cache config needs at least one level", assertThrows(IllegalArgumentException.class,
                () -> new CacheConfig(List.of())).getMessage());
        assertEquals("cache lineSize=48 must be a power of two from 8 to 4096", assertThrows(
                IllegalArgumentException.class, () -> new CacheConfig(List.of(new CacheConfig.Level(4800, 1)), 48))
                .getMessage());
        assertEquals(128, new CacheConfig(List.of(new CacheConfig.Level(1024, 2)), 128).lineSize());
    }
}
