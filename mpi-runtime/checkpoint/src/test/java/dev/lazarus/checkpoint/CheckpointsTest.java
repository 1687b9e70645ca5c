package dev.lazarus.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.mpi.launch.HeartbeatFile;
import dev.lazarus.mpi.local.SingleRankComm;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointsTest {
    private final List<String> log = new ArrayList<>();
    private final List<String> pageTracking = new ArrayList<>();

    /** Collects the log, keeping the page-tracking line each open writes apart from the rest. */
    private void log(String line) {
        (line.contains(": page tracking: ") ? pageTracking : log).add(line);
    }

    private static CheckpointSettings settings(Path dir, String... pairs) {
        Properties p = new Properties();
        p.setProperty(CheckpointSettings.L1_DIR, dir.resolve("l1").toString());
        p.setProperty(CheckpointSettings.PFS_DIR, dir.resolve("pfs").toString());
        for (int i = 0; i < pairs.length; i += 2) {
            p.setProperty(pairs[i], pairs[i + 1]);
        }
        return new CheckpointSettings(p, Map.of()).conclude("app");
    }

    /**
     * L1 retention keeps a pruned version's data file as the rank's spare, which the next version overwrites (the
     * same inode); releasing the job after a finished run deletes the spare with the versions.
     */
    @Test
    void prunedL1DataFilesAreOverwrittenByTheNextVersionAndReleasedWithTheJob(@TempDir Path dir) throws Exception {
        CheckpointSettings s = settings(dir, CheckpointSettings.PFS_DIR, "off", CheckpointSettings.FULL_EVERY, "1");
        CheckpointDirectory l1 = new CheckpointDirectory(dir.resolve("l1"), "app");
        double[] x = new double[100_000];
        try (Checkpoints ckpt = Checkpoints.open(new SingleRankComm(), s, this::log)) {
            ckpt.protect("x", x);
            ckpt.checkpoint(1);
            Object first = Files.getAttribute(l1.dataFile(1, 0), "unix:ino");
            ckpt.checkpoint(2);
            ckpt.checkpoint(3); // keeps 2 and 3: version 1's data file becomes the spare
            assertEquals(List.of(2L, 3L), l1.versions());
            assertEquals(first, Files.getAttribute(l1.spareDataFile(0), "unix:ino"));
            Arrays.fill(x, 4);
            ckpt.checkpoint(4);
            assertEquals(first, Files.getAttribute(l1.dataFile(4, 0), "unix:ino"));
            Arrays.fill(x, 0);
            assertEquals(Duration.ZERO, ckpt.restoreReadTime(), "no restore yet");
            long start = System.nanoTime();
            assertEquals(OptionalLong.of(4), ckpt.restart());
            long restart = System.nanoTime() - start;
            assertEquals(4, x[x.length - 1]);
            assertEquals("L1", ckpt.restoredFrom());
            long read = ckpt.restoreReadTime().toNanos();
            assertTrue(read > 0 && read <= restart, () -> "read " + read + " ns of a " + restart + " ns restart");
            assertTrue(Files.exists(l1.spareDataFile(0)), "version 2's file is the spare now");
            ckpt.release();
        }
        try (var left = Files.list(dir.resolve("l1").resolve("app"))) {
            assertEquals(List.of(), left.toList());
        }
    }

    @Test
    void restartPrefersL1AndFallsBackToThePfs(@TempDir Path dir) throws Exception {
        CheckpointSettings s = settings(dir, CheckpointSettings.PFS_EVERY, "2");
        double[] x = new double[10_000];
        int[] keys = new int[333];
        double[] atFour;
        double[] atTwo = null;
        SingleRankComm comm = new SingleRankComm();
        try (Checkpoints ckpt = Checkpoints.open(comm, s, this::log)) {
            ckpt.protect("x", x);
            ckpt.protect("keys", keys);
            assertEquals(OptionalLong.empty(), ckpt.restart());
            assertEquals(Duration.ZERO, ckpt.restoreReadTime(), "nothing restored");
            for (int v = 1; v <= 4; v++) {
                x[v * 1000] = v;
                keys[v] = -v;
                CheckpointReport report = ckpt.checkpoint(v);
                assertTrue(report.complete(), () -> report.error());
                if (v == 2) {
                    atTwo = x.clone();
                }
            }
            ckpt.awaitDrain();
            atFour = x.clone();
        }
        Arrays.fill(x, 7);
        assertEquals(OptionalLong.of(4), restart(comm, s, x, keys));
        assertArrayEquals(atFour, x);
        assertEquals(-4, keys[4]);
        wipe(dir.resolve("l1"));
        Arrays.fill(x, 7);
        assertEquals(OptionalLong.of(4), restart(comm, s, x, keys));
        assertArrayEquals(atFour, x);
        CheckpointDirectory pfs = new CheckpointDirectory(dir.resolve("pfs"), "app");
        byte[] data = Files.readAllBytes(pfs.dataFile(4, 0));
        data[data.length - 1] ^= 1;
        Files.write(pfs.dataFile(4, 0), data);
        // The PFS got versions 2 and 4, each whole: with 4 damaged there, 2 is restored.
        assertEquals(OptionalLong.of(2), restart(comm, s, x, keys));
        assertArrayEquals(atTwo, x);
        CheckpointDirectory l1 = new CheckpointDirectory(dir.resolve("l1"), "app");
        assertEquals(3, log.size(), log::toString);
        assertTrue(pageTracking.getFirst().startsWith("rank 0: page tracking: "), pageTracking::toString);
        assertEquals("rank 0: restored version 4 from L3 after: " + l1.manifestFile(4, 0) + ": missing",
                log.get(0));
        assertTrue(log.get(1).startsWith("rank 0: cannot restore version 4: " + l1.manifestFile(4, 0) + ": missing; "
                + pfs.dataFile(4, 0) + ": chunk "), log::toString);
        assertTrue(log.get(1).endsWith("(variable keys offset=512 length=820) checksum mismatch"), log::toString);
        assertEquals("rank 0: restored version 2 from L3 after: " + l1.manifestFile(2, 0) + ": missing",
                log.get(2));
    }

    /**
     * What a rank tells the coordinator it holds on L1 (the kept versions, with its bytes of each), and the version the
     * coordinator chose: the restore goes no newer, and the beginning restores nothing.
     */
    @Test
    void theRankListsWhatL1HoldsAndRestoresTheCoordinatorsChoice(@TempDir Path dir) throws Exception {
        CheckpointSettings s = settings(dir, CheckpointSettings.KEEP, "3", CheckpointSettings.PFS_DIR, "off");
        double[] x = new double[4096];
        double[] atFour = null;
        try (Checkpoints ckpt = Checkpoints.open(new SingleRankComm(), s, this::log)) {
            ckpt.protect("x", x);
            for (int v = 1; v <= 5; v++) {
                x[v * 700] = v;
                assertTrue(ckpt.checkpoint(v).complete());
                atFour = v == 4 ? x.clone() : atFour;
            }
            CheckpointDirectory l1 = new CheckpointDirectory(dir.resolve("l1"), "app");
            List<HeartbeatFile.Held> held = ckpt.heldOnL1();
            assertEquals(List.of(3L, 4L, 5L), held.stream().map(HeartbeatFile.Held::version).toList());
            for (HeartbeatFile.Held version : held) {
                assertEquals(Files.size(l1.manifestFile(version.version(), 0))
                        + Files.size(l1.dataFile(version.version(), 0)), version.bytes());
                assertTrue(version.verified());
                assertFalse(version.l2Parity(), "one rank on one node: no L2");
            }
        }
        Arrays.fill(x, 7);
        try (Checkpoints ckpt = Checkpoints.open(new SingleRankComm(), s, this::log)) {
            ckpt.protect("x", x);
            assertEquals(OptionalLong.of(4), ckpt.restart(4, true));
            assertArrayEquals(atFour, x);
            assertEquals(List.of(4L), ckpt.heldOnL1().stream().map(HeartbeatFile.Held::version).toList(),
                    "after a restore, the version restored");
            Arrays.fill(x, 7);
            assertEquals(OptionalLong.empty(), ckpt.restart(-1, true), "the beginning restores nothing");
            assertEquals(7, x[2800]);
        }
    }

    /**
     * A relaunched client searches at open, and its first restore takes that answer (the version and its manifests,
     * read then): files that change after it looked (a version lost, one damaged) send the restore to the next older
     * version, as a fresh search would have. A restore after a checkpoint of the same client searches again.
     */
    @Test
    void aRelaunchPassesOverVersionsLostOrDamagedAfterItsSearchAtOpen(@TempDir Path dir) throws Exception {
        CheckpointSettings s = settings(dir, CheckpointSettings.KEEP, "4", CheckpointSettings.FULL_EVERY, "1",
                CheckpointSettings.PFS_DIR, "off");
        CheckpointDirectory l1 = new CheckpointDirectory(dir.resolve("l1"), "app");
        double[] x = new double[50_000];
        List<double[]> at = new ArrayList<>(List.of(new double[0]));
        try (Checkpoints ckpt = Checkpoints.open(new SingleRankComm(), s, this::log)) {
            ckpt.protect("x", x);
            for (int v = 1; v <= 3; v++) {
                Arrays.fill(x, v);
                assertTrue(ckpt.checkpoint(v).complete());
                at.add(x.clone());
            }
        }
        try (Checkpoints ckpt = Checkpoints.open(new SingleRankComm(), s, this::log)) {
            ckpt.protect("x", x);
            ckpt.awaitRestorePlan(); // it found version 3 and read its manifest
            Files.delete(l1.manifestFile(3, 0));
            Arrays.fill(x, -1);
            assertEquals(OptionalLong.of(2), ckpt.restart());
            assertArrayEquals(at.get(2), x);
            // Written by this client: the restore finds version 4, which no search at open saw.
            Arrays.fill(x, 4);
            assertTrue(ckpt.checkpoint(4).complete());
            Arrays.fill(x, -1);
            assertEquals(OptionalLong.of(4), ckpt.restart());
            assertEquals(4, x[x.length - 1]);
        }
        try (Checkpoints ckpt = Checkpoints.open(new SingleRankComm(), s, this::log)) {
            ckpt.protect("x", x);
            ckpt.awaitRestorePlan(); // version 4, its manifest read and checked
            byte[] data = Files.readAllBytes(l1.dataFile(4, 0));
            data[data.length / 2] ^= 1;
            Files.write(l1.dataFile(4, 0), data);
            Arrays.fill(x, -1);
            assertEquals(OptionalLong.of(2), ckpt.restart());
            assertArrayEquals(at.get(2), x);
        }
        assertTrue(log.stream().anyMatch(line -> line.startsWith("rank 0: cannot restore version 3: "
                + l1.manifestFile(3, 0) + ": missing")), log::toString);
        assertTrue(log.stream().anyMatch(line -> line.startsWith("rank 0: cannot restore version 4: "
                + l1.dataFile(4, 0) + ": chunk ") && line.endsWith("checksum mismatch")), log::toString);
    }

    @Test
    void receivedDataIsCheckpointedAndOldVersionsArePruned(@TempDir Path dir) throws Exception {
        CheckpointSettings s = settings(dir, CheckpointSettings.FULL_EVERY, "2", CheckpointSettings.PFS_DIR, "off");
        double[] x = new double[4096];
        SingleRankComm comm = new SingleRankComm();
        try (Checkpoints ckpt = Checkpoints.open(comm, s, this::log)) {
            ckpt.protect("x", x);
            for (int v = 1; v <= 5; v++) {
                comm.send(new double[] {v, v}, 0, 2, 0, 9);
                comm.recv(x, v * 512, 2, 0, 9);
                CheckpointReport report = ckpt.checkpoint(v);
                assertEquals(v % 2 == 1 ? -1 : v - 1, report.stats().parentVersion());
                if (v % 2 == 0) {
                    assertEquals(512, report.stats().blockLevelBytes());
                }
            }
            CheckpointDirectory l1 = new CheckpointDirectory(dir.resolve("l1"), "app");
            assertEquals(List.of(3L, 4L, 5L), l1.versions());
            double[] expected = x.clone();
            Arrays.fill(x, 0);
            assertEquals(OptionalLong.of(5), ckpt.restart());
            assertArrayEquals(expected, x);
        }
        assertFalse(Files.exists(dir.resolve("pfs")));
    }

    @Test
    void l3KeepsTheNewestCompleteVersionsOnceANewerOneHasDrained(@TempDir Path dir) throws Exception {
        for (int keep : new int[] {0, 1, 2}) {
            Path run = dir.resolve("keep" + keep);
            CheckpointSettings s = settings(run, CheckpointSettings.PFS_EVERY, "1", CheckpointSettings.PFS_KEEP,
                    Integer.toString(keep));
            CheckpointDirectory pfs = new CheckpointDirectory(run.resolve("pfs"), "app");
            double[] x = new double[4096];
            try (Checkpoints ckpt = Checkpoints.open(new SingleRankComm(), s, this::log)) {
                ckpt.protect("x", x);
                for (long v = 1; v <= 6; v++) {
                    x[(int) v] = v;
                    assertTrue(ckpt.checkpoint(v).complete());
                    ckpt.awaitDrain();
                    // Version v - 1 was agreed complete at this checkpoint: it and the keep - 1 before it stay,
                    // and v, newer than every kept version, is left alone.
                    long oldest = keep == 0 ? 1 : Math.max(1, v - keep);
                    assertEquals(LongStream.rangeClosed(oldest, v).boxed().toList(), pfs.versions(),
                            "keep=" + keep + " after version " + v);
                }
            }
        }
        assertEquals(List.of(), log);
    }

    @Test
    void badSettingsAreOneLineErrors(@TempDir Path dir) {
        assertEquals("lazarus.ckpt.block.size=1000 must be a power of two from 256 to 65536",
                assertThrows(IllegalArgumentException.class,
                        () -> settings(dir, CheckpointSettings.BLOCK_SIZE, "1000")).getMessage());
        assertEquals("lazarus.ckpt.full.every=0 must be an integer from 1 to 1000000",
                assertThrows(IllegalArgumentException.class,
                        () -> settings(dir, CheckpointSettings.FULL_EVERY, "0")).getMessage());
        assertEquals("lazarus.ckpt.pfs.keep=-1 must be an integer from 0 to 1000",
                assertThrows(IllegalArgumentException.class,
                        () -> settings(dir, CheckpointSettings.PFS_KEEP, "-1")).getMessage());
        assertEquals(2, settings(dir).pfsKeep());
        assertEquals("lazarus.ckpt.pfs.direct=maybe must be true or false",
                assertThrows(IllegalArgumentException.class,
                        () -> settings(dir, CheckpointSettings.PFS_DIRECT, "maybe")).getMessage());
        assertTrue(settings(dir).pfsDirect());
        assertFalse(settings(dir, CheckpointSettings.PFS_DIRECT, "off").pfsDirect());
        assertEquals("job id '../x' must be 1 to 64 of [A-Za-z0-9_.-], not . or ..",
                assertThrows(IllegalArgumentException.class,
                        () -> settings(dir, CheckpointSettings.JOB_ID, "../x")).getMessage());
        CheckpointSettings fromEnv = new CheckpointSettings(new Properties(),
                Map.of("LAZARUS_CKPT_PFS_EVERY", "7", "LAZARUS_CKPT_PFS_DIR", "off", "LAZARUS_CKPT_PFS_KEEP", "0"))
                .conclude("app");
        assertEquals(7, fromEnv.pfsEvery());
        assertEquals(0, fromEnv.pfsKeep());
        assertTrue(fromEnv.pfsDirect());
        assertFalse(new CheckpointSettings(new Properties(), Map.of("LAZARUS_CKPT_PFS_DIRECT", "false"))
                .conclude("app").pfsDirect());
        assertTrue(fromEnv.pfsDirectory().isEmpty());
    }

    /** A fresh client protecting x and keys, as a relaunched job has, and its restart. */
    private OptionalLong restart(SingleRankComm comm, CheckpointSettings s, double[] x, int[] keys) {
        try (Checkpoints ckpt = Checkpoints.open(comm, s, this::log)) {
            ckpt.protect("x", x);
            ckpt.protect("keys", keys);
            return ckpt.restart();
        }
    }

    private static void wipe(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
