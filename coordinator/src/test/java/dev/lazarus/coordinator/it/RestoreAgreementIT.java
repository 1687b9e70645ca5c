package dev.lazarus.coordinator.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.testing.LazarusProcess;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restore in which the ranks do not hold the same versions on the same levels, under real MPI on both backends
 * ({@link RestoreAgreementProbeApp}). Every rank first reads its own newest version from L1 and the ranks agree on
 * the outcome after: the restore must still come from the newest version every rank can restore, each rank from its
 * cheapest level, and no rank may keep the data of a version the others passed over.
 */
class RestoreAgreementIT {
    private static final Pattern CASE = Pattern.compile("case ([a-z0-9-]+): version (-?\\d+) from (.*), wrong (\\d+),"
            + " read ([0-9.]+) s");

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"openmpi", "mpj"})
    void theRanksRestoreTheNewestVersionEveryOneCanFromItsCheapestLevel(String backend) throws Exception {
        Path testClasses = Path.of(RestoreAgreementProbeApp.class.getProtectionDomain().getCodeSource()
                .getLocation().toURI());
        LazarusProcess.Result result = LazarusProcess.run(Duration.ofMinutes(3), "run", "--np", "3", "--backend",
                backend, "--job", "agree-" + backend, "--max-restarts", "0", "--classpath", testClasses.toString(),
                "--nvm-dir", dir.resolve("nvm").toString(), "--ckpt-dir", dir.resolve("l1").toString(), "--pfs-dir",
                dir.resolve("pfs").toString(), "--state-dir", "off", "--timeout", "150", "--jvm-opt",
                "-Dlazarus.ckpt.pfs.every=1", RestoreAgreementProbeApp.class.getName());
        String out = result.output();
        assertEquals(0, result.exitStatus(), out);
        Matcher m = CASE.matcher(out);
        List<String> cases = m.results().map(r -> r.group(1) + ": version " + r.group(2) + " from " + r.group(3)
                + ", wrong " + r.group(4)).toList();
        assertEquals(List.of(
                "alike: version 3 from L1, wrong 0",
                "l1-lost: version 3 from L1 and L3, wrong 0",
                "l1-damaged: version 3 from L1 and L3, wrong 0",
                "lost-everywhere: version 2 from L1, wrong 0",
                "relaunched: version 2 from L1, wrong 0"), cases, out);
        assertTrue(out.contains("case settings-differ: refused on 3 of 3 ranks: the ranks were started with"
                + " different checkpoint settings (rank 0: job=agree-" + backend + " every=0 "), out);
        for (Matcher read = CASE.matcher(out); read.find(); ) {
            assertTrue(Double.parseDouble(read.group(5)) > 0, () -> "no read time: " + out);
        }
        assertTrue(out.contains("rank 2: restored version 3 from L3 after: "), out);
        assertTrue(out.contains("checksum mismatch"), out);
        assertTrue(out.contains("rank 2: cannot restore version 3: "), out);
    }
}
