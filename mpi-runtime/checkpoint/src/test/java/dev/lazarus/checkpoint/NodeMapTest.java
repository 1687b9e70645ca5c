package dev.lazarus.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.mpi.local.SingleRankComm;
import dev.lazarus.store.level.l2.L2Scheme;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class NodeMapTest {
    @Test
    void nodesAreNumberedByTheirLowestRankWhichLeadsThem() {
        NodeMap map = NodeMap.of(List.of("b", "a", "b", "c", "a"));
        assertEquals(List.of("b", "a", "c"), map.names());
        assertEquals(3, map.nodes());
        assertEquals(List.of(0, 2), map.ranksOn(0));
        assertEquals(List.of(1, 4), map.ranksOn(1));
        assertEquals(1, map.node(4));
        assertEquals(1, map.leader(1));
        assertTrue(map.isLeader(3));
        assertFalse(map.isLeader(2));
    }

    @Test
    void gatherCarriesTheNameThroughTheCommunicator() {
        NodeMap map = NodeMap.gather(new SingleRankComm(), "node-0.cluster");
        assertEquals(List.of("node-0.cluster"), map.names());
        assertThrows(IllegalArgumentException.class, () -> NodeMap.gather(new SingleRankComm(), "x".repeat(256)));
    }

    private static CheckpointSettings settings(String... pairs) {
        Properties p = new Properties();
        for (int i = 0; i < pairs.length; i += 2) {
            p.setProperty(pairs[i], pairs[i + 1]);
        }
        return new CheckpointSettings(p, Map.of("LAZARUS_HOST", "lzh2", "LAZARUS_HOST_ADDR", "10.213.0.12"))
                .conclude("app");
    }

    @Test
    void theNodeNameComesFromTheHostAndNamesTheL1Directory() {
        CheckpointSettings s = settings(CheckpointSettings.L1_DIR, "/dev/shm/hosts/%h/ramdisk");
        assertEquals("lzh2", s.node());
        assertEquals(Path.of("/dev/shm/hosts/lzh2/ramdisk"), s.l1Directory());
        assertEquals("10.213.0.12", s.l2Bind().orElseThrow());
        assertEquals(1, s.l2Every());
        assertEquals(8, s.l2SetSize());
        assertEquals(L2Scheme.XOR, s.l2Scheme());
        assertEquals(L2Scheme.PARTNER, settings(CheckpointSettings.L2_SCHEME, "Partner").l2Scheme());
        assertEquals("lazarus.ckpt.l2.scheme=raid6 must be xor or partner",
                assertThrows(IllegalArgumentException.class, () -> settings(CheckpointSettings.L2_SCHEME, "raid6"))
                        .getMessage());
        assertTrue(s.l2Secret().isEmpty());
        assertEquals("lazarus.ckpt.node=../x must be 1 to 255 of [A-Za-z0-9._-], not dots only",
                assertThrows(IllegalArgumentException.class, () -> settings(CheckpointSettings.NODE, "../x"))
                        .getMessage());
        assertEquals("lazarus.ckpt.l2.set.size=1 must be an integer from 2 to 256",
                assertThrows(IllegalArgumentException.class, () -> settings(CheckpointSettings.L2_SET_SIZE, "1"))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> settings(CheckpointSettings.NODE, ".."));
    }
}
