package dev.lazarus.store.level.xor;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class XorSetLayoutTest {

    private static XorSetLayout equalSizes(int n, long size) {
        long[] sizes = new long[n];
        java.util.Arrays.fill(sizes, size);
        return XorSetLayout.of(sizes);
    }

    @Test
    void chunkSizeIsMaxPayloadOverNMinusOneRoundedUpToEight() {
        XorSetLayout layout = XorSetLayout.of(100, 7, 0, 1001);
        assertEquals(4, layout.setSize());
        assertEquals(3, layout.dataChunksPerMember());
        assertEquals(1001, layout.maxPayloadSize());
        assertEquals(336, layout.chunkSize()); // ceil(1001 / 3) = 334 -> 336
        assertEquals(1008, layout.paddedPayloadSize());
        assertEquals(672, layout.chunkOffset(2));
        assertEquals(7, layout.payloadSize(1));
        assertEquals(0, XorSetLayout.of(0, 0, 0).chunkSize());
        assertEquals(8, XorSetLayout.of(1, 0).chunkSize());
        assertEquals(16, XorSetLayout.of(16, 3).chunkSize());
    }

    @Test
    void mappingMatchesTheDiagramForFourMembers() {
        XorSetLayout layout = equalSizes(4, 96);
        // Row m of the javadoc diagram: the holders of chunks 0, 1, 2 of member m.
        int[][] holders = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
        for (int m = 0; m < 4; m++) {
            for (int c = 0; c < 3; c++) {
                assertEquals(holders[m][c], layout.parityHolder(m, c), "member=" + m + " chunk=" + c);
            }
        }
        assertEquals(1, layout.chunkInParity(1, 3));
        assertEquals(0, layout.chunkInParity(1, 0));
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 5, 8, 13, 256})
    void everyChunkGoesToAnotherMembersParityOnceAndEveryParityTakesOneChunkFromEachOther(int n) {
        XorSetLayout layout = equalSizes(n, 1);
        int[][] taken = new int[n][n]; // taken[holder][contributor] = chunks of contributor folded into holder
        for (int m = 0; m < n; m++) {
            Set<Integer> holders = new HashSet<>();
            for (int c = 0; c < n - 1; c++) {
                int h = layout.parityHolder(m, c);
                assertNotEquals(m, h, "member=" + m + " chunk=" + c);
                assertTrue(holders.add(h), "two chunks of member " + m + " go to holder " + h);
                assertEquals(c, layout.chunkInParity(h, m), "inverse: member=" + m + " chunk=" + c);
                taken[h][m]++;
            }
            assertEquals(n - 1, holders.size());
        }
        for (int h = 0; h < n; h++) {
            for (int m = 0; m < n; m++) {
                assertEquals(h == m ? 0 : 1, taken[h][m], "holder=" + h + " contributor=" + m);
            }
        }
    }

    @Test
    void layoutsWithTheSameSizesAreEqualAndCopyTheirInput() {
        long[] sizes = {5, 6, 7};
        XorSetLayout layout = XorSetLayout.of(sizes);
        sizes[0] = 99;
        assertEquals(5, layout.payloadSize(0));
        assertEquals(XorSetLayout.of(5, 6, 7), layout);
        assertEquals(XorSetLayout.of(5, 6, 7).hashCode(), layout.hashCode());
        assertEquals("XorSetLayout[setSize=3 chunkSize=8 payloadSizes=[5, 6, 7]]", layout.toString());
    }

    @Test
    void badArgumentsNameTheValues() {
        assertMessage("XOR set too small: setSize=1 min=2", () -> XorSetLayout.of(10));
        assertMessage("XOR set too small: setSize=0 min=2", XorSetLayout::of);
        assertMessage("XOR set too large: setSize=257 max=256", () -> XorSetLayout.of(new long[257]));
        assertMessage("negative payload size: member=2 size=-1", () -> XorSetLayout.of(1, 2, -1));
        assertMessage("payload too large for XOR set: maxPayloadSize=9223372036854775807 setSize=2",
                () -> XorSetLayout.of(Long.MAX_VALUE, 0));
        XorSetLayout layout = XorSetLayout.of(1, 2, 3);
        assertMessage("member out of range: member=3 setSize=3", () -> layout.payloadSize(3));
        assertMessage("member out of range: member=-1 setSize=3", () -> layout.parityHolder(-1, 0));
        assertMessage("chunk out of range: chunk=2 dataChunksPerMember=2", () -> layout.parityHolder(0, 2));
        assertMessage("chunk out of range: chunk=-1 dataChunksPerMember=2", () -> layout.chunkOffset(-1));
        assertMessage("a member's parity holds none of its own data: holder=1 contributor=1",
                () -> layout.chunkInParity(1, 1));
    }

    static void assertMessage(String expected, org.junit.jupiter.api.function.Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertEquals(expected, e.getMessage());
    }
}
