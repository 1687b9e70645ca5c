package dev.lazarus.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.lazarus.mpi.local.SingleRankComm;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shared settings' line and fingerprint; ranks that differ are tested with real MPI (RestoreAgreementIT). */
class SameSettingsTest {
    private static CheckpointSettings settings(Path dir, String node, String keep) {
        Properties p = new Properties();
        p.setProperty(CheckpointSettings.L1_DIR, dir.resolve(node).toString());
        p.setProperty(CheckpointSettings.NODE, node);
        p.setProperty(CheckpointSettings.KEEP, keep);
        return new CheckpointSettings(p, Map.of()).conclude("app");
    }

    @Test
    void nodesMayDifferInPathsAndNamesButNotInWhatTheRanksDoTogether(@TempDir Path dir) {
        String a = settings(dir, "node-a", "2").sharedByEveryRank();
        assertEquals(a, settings(dir, "node-b", "2").sharedByEveryRank());
        String other = settings(dir, "node-a", "3").sharedByEveryRank();
        assertNotEquals(a, other);
        assertEquals(SameSettings.fingerprint(a), SameSettings.fingerprint(settings(dir, "node-b", "2")
                .sharedByEveryRank()));
        assertNotEquals(SameSettings.fingerprint(a), SameSettings.fingerprint(other));
        assertEquals("job=app every=0 block.size=512 full.every=8 keep=2 l2.every=1 l2.set.size=8 l2.scheme=XOR"
                + " l2.secret=none pfs=on pfs.every=4 pfs.keep=2 pfs.direct=true daemon=embedded", a);
    }

    @Test
    void oneRankAgreesWithItself(@TempDir Path dir) {
        SameSettings.check(new SingleRankComm(), settings(dir, "node-a", "2"));
    }
}
