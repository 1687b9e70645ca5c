package dev.lazarus.mpi.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.mpi.launch.HeartbeatFile.HeartbeatSnapshot;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A rank's heartbeat as the coordinator reads it: what the rank wrote, consistent, and nothing else. */
class HeartbeatTest {
    @TempDir
    Path dir;

    private static Map<String, String> env(Path dir) {
        return Map.of(ExitStatusFiles.ENV, dir.toString());
    }

    @Test
    void theCoordinatorReadsWhatTheRankWrote() throws Exception {
        long before = System.currentTimeMillis();
        try (Heartbeat beat = Heartbeat.forRank(env(dir), 3)) {
            HeartbeatSnapshot opened = HeartbeatFile.read(dir, 3).orElseThrow();
            assertFalse(opened.inMainLoop());
            assertTrue(opened.setUpBeatMillis() >= before, "opening is the first step of set-up");
            assertEquals(opened.setUpBeatMillis(), opened.lastSignOfLifeMillis());
            Thread.sleep(2);
            beat.setUpStep();
            assertTrue(HeartbeatFile.read(dir, 3).orElseThrow().lastSignOfLifeMillis() > opened.setUpBeatMillis());
            assertEquals(0, opened.mainLoopBeganMillis(), "set-up is not the main loop");
            long beforeLoop = System.currentTimeMillis();
            beat.start(5, 100, 200, true, true, HeartbeatFile.Restore.NONE, 2_000_000_000L);
            long began = HeartbeatFile.read(dir, 3).orElseThrow().mainLoopBeganMillis();
            assertTrue(began >= beforeLoop && began <= System.currentTimeMillis(), "began " + began);
            for (int it = 5; it <= 9; it++) {
                beat.beat(it);
                Thread.sleep(2);
            }
            HeartbeatSnapshot s = HeartbeatFile.read(dir, 3).orElseThrow();
            assertEquals(9, s.iteration());
            assertEquals(5, s.firstIteration());
            assertEquals(100, s.iterations());
            assertEquals(200, s.maxIterations());
            assertTrue(s.persistent() && s.resumedFromNvm() && !s.finished());
            assertFalse(s.restored().any());
            assertEquals(2_000_000_000L, s.setUpNanos());
            assertEquals(4, s.durations().length, "five beats measure four iterations");
            assertTrue(s.medianIterationSeconds() >= 0.002 && s.medianIterationSeconds() < 1,
                    "median " + s.medianIterationSeconds());
            assertTrue(s.lastBeatMillis() >= before);
            assertTrue(s.inMainLoop() && s.lastSignOfLifeMillis() == s.lastBeatMillis());
            assertEquals(began, s.mainLoopBeganMillis(), "beats do not move the main loop's beginning");
            assertTrue(s.lastBeatMillis() > began);
            Thread.sleep(2);
            beat.mainLoopEnded();
            HeartbeatSnapshot ended = HeartbeatFile.read(dir, 3).orElseThrow();
            assertTrue(!ended.inMainLoop() && ended.pastMainLoop() && ended.lastSignOfLifeMillis() > s.lastBeatMillis(),
                    ended.toString());
            assertFalse(s.node().isBlank(), "the rank's node is named");
            assertEquals(ProcessHandle.current().pid(), s.pid(), "whom the node daemon kills if the rank hangs");
            // A rollback within the launch starts again, fresh: the launch still began with an NVM restart.
            beat.start(1, 100, 200, true, false, new HeartbeatFile.Restore(40, 2, 1_500_000_000L), 1);
            assertFalse(HeartbeatFile.read(dir, 3).orElseThrow().pastMainLoop(), "a new start's loop has not ended");
            assertTrue(HeartbeatFile.read(dir, 3).orElseThrow().mainLoopBeganMillis() > began,
                    "a rollback's start begins the main loop again");
            assertFalse(HeartbeatFile.read(dir, 3).orElseThrow().accepted(), "a new start has no verdict");
            beat.resultAccepted();
            HeartbeatSnapshot verified = HeartbeatFile.read(dir, 3).orElseThrow();
            assertTrue(verified.accepted() && !verified.finished(), "the verdict, before the levels are released");
            beat.finish(true, true, 3_000_000L);
            s = HeartbeatFile.read(dir, 3).orElseThrow();
            assertTrue(s.resumedFromNvm() && s.finished() && s.accepted() && s.rolledBack(), s.toString());
            assertEquals(new HeartbeatFile.Restore(40, 2, 1_500_000_000L), s.restored(),
                    "the version restored, where from (L1 rebuilt from L2) and the restore's time");
            assertEquals(3_000_000L, s.verificationNanos());
        }
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
                HeartbeatFile.file(dir, 3))));
    }

    /** What the rank holds on L1, for a coordinator that cannot read the node's RAM disk: the newest eight. */
    @Test
    void theVersionsHeldOnL1AreListedNewestEight() throws Exception {
        try (Heartbeat beat = Heartbeat.forRank(env(dir), 1)) {
            beat.start(1, 100, 100, true, false, HeartbeatFile.Restore.NONE, 0);
            assertEquals(List.of(), HeartbeatFile.read(dir, 1).orElseThrow().heldOnL1(), "nothing listed yet");
            List<HeartbeatFile.Held> held = new ArrayList<>();
            for (int v = 1; v <= 10; v++) {
                held.add(new HeartbeatFile.Held(v * 10L, 1000L + v, v != 9, v % 2 == 0));
            }
            beat.heldOnL1(held);
            assertEquals(held.subList(2, 10), HeartbeatFile.read(dir, 1).orElseThrow().heldOnL1());
            // Pruned to two: the older entries are gone, not left behind.
            beat.heldOnL1(held.subList(8, 10));
            assertEquals(List.of(new HeartbeatFile.Held(90, 1009, false, false),
                            new HeartbeatFile.Held(100, 1010, true, true)),
                    HeartbeatFile.read(dir, 1).orElseThrow().heldOnL1());
        }
    }

    @Test
    void theLevelsIncidentsAreWhatTheRankLastSaid() throws Exception {
        try (Heartbeat beat = Heartbeat.forRank(env(dir), 2)) {
            beat.start(1, 100, 100, true, false, HeartbeatFile.Restore.NONE, 0);
            assertEquals(HeartbeatFile.Incidents.NONE, HeartbeatFile.read(dir, 2).orElseThrow().incidents());
            beat.incidents(new HeartbeatFile.Incidents(3, 1200, 1, 800));
            HeartbeatFile.Incidents read = HeartbeatFile.read(dir, 2).orElseThrow().incidents();
            assertEquals(new HeartbeatFile.Incidents(3, 1200, 1, 800), read);
            assertTrue(read.full() && read.corrupt());
        }
    }

    @Test
    void theDurationsAreARingOfTheLastSixteen() throws Exception {
        try (Heartbeat beat = Heartbeat.forRank(env(dir), 0)) {
            beat.start(1, 50, 50, false, false, HeartbeatFile.Restore.NONE, 0);
            for (int it = 1; it <= 40; it++) {
                beat.beat(it);
            }
            HeartbeatSnapshot s = HeartbeatFile.read(dir, 0).orElseThrow();
            assertEquals(HeartbeatFile.DURATIONS, s.durations().length);
            assertFalse(s.persistent());
        }
    }

    @Test
    void aReaderKeepsUpWithARankThatBeatsFast() throws Exception {
        try (Heartbeat beat = Heartbeat.forRank(env(dir), 1)) {
            beat.start(1, Integer.MAX_VALUE, Integer.MAX_VALUE, true, false, HeartbeatFile.Restore.NONE, 0);
            AtomicBoolean stop = new AtomicBoolean();
            Thread writer = Thread.ofPlatform().start(() -> {
                for (int it = 1; !stop.get(); it++) {
                    beat.beat(it);
                    for (int spin = 0; spin < 100; spin++) {
                        Thread.onSpinWait();   // a rank beats once per iteration, not back to back
                    }
                }
            });
            try {
                int last = 0;
                for (int i = 0; i < 2000; i++) {
                    HeartbeatSnapshot s = HeartbeatFile.read(dir, 1).orElseThrow();
                    assertTrue(s.iteration() >= last, "iterations only grow: " + s.iteration() + " < " + last);
                    last = s.iteration();
                }
            } finally {
                stop.set(true);
                writer.join();
            }
        }
    }

    /**
     * The seqlock over two copies: a copy whose sequence is odd is being written and the reader takes nothing from it,
     * but the other copy, the state before that write: a rank killed in the middle of a write leaves a readable
     * heartbeat, one beat old.
     */
    @Test
    void aCopyBeingWrittenIsNeverReadAndTheOtherHoldsTheBeatBefore() throws Exception {
        try (Heartbeat beat = Heartbeat.forRank(env(dir), 6)) {
            beat.start(1, 10, 10, true, false, HeartbeatFile.Restore.NONE, 0);
            beat.beat(6);
            beat.beat(7);
        }
        Path file = HeartbeatFile.file(dir, 6);
        assertEquals(7, HeartbeatFile.read(dir, 6).orElseThrow().iteration());
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long[] sequences = new long[HeartbeatFile.SLOTS];
            for (int slot = 0; slot < HeartbeatFile.SLOTS; slot++) {
                ByteBuffer sequence = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
                channel.read(sequence, (long) slot * HeartbeatFile.BYTES + HeartbeatFile.SEQUENCE_AT);
                sequences[slot] = sequence.getLong(0);
                assertEquals(0, sequences[slot] & 1, "a finished write leaves the sequence even");
            }
            int newest = sequences[0] > sequences[1] ? 0 : 1;
            assertEquals(2, Math.abs(sequences[0] - sequences[1]), "the copies are one write apart");
            setSequence(channel, newest, sequences[newest] + 1);
            assertEquals(6, HeartbeatFile.read(dir, 6).orElseThrow().iteration(), "the copy before the write");
            setSequence(channel, 1 - newest, sequences[1 - newest] + 1);
            assertTrue(HeartbeatFile.read(dir, 6).isEmpty(), "a copy in the middle of a write was read");
            setSequence(channel, 1 - newest, sequences[1 - newest]);
            setSequence(channel, newest, sequences[newest] + 2);
            assertEquals(7, HeartbeatFile.read(dir, 6).orElseThrow().iteration());
        }
    }

    private static void setSequence(FileChannel channel, int slot, long value) throws IOException {
        channel.write(ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(0, value),
                (long) slot * HeartbeatFile.BYTES + HeartbeatFile.SEQUENCE_AT);
    }

    @Test
    void noStatusDirectoryMeansNoHeartbeatAndAForeignFileIsNone() throws Exception {
        try (Heartbeat none = Heartbeat.forRank(Map.of(), 0)) {
            none.start(1, 1, 1, true, false, HeartbeatFile.Restore.NONE, 0);
            none.beat(1);
        }
        assertTrue(HeartbeatFile.read(dir, 0).isEmpty(), "no file, no heartbeat");
        Files.write(HeartbeatFile.file(dir, 2), new byte[HeartbeatFile.SLOTS * HeartbeatFile.BYTES]);
        assertTrue(HeartbeatFile.read(dir, 2).isEmpty(), "a page without the magic is not a heartbeat");
        Files.write(HeartbeatFile.file(dir, 4), new byte[7]);
        assertTrue(HeartbeatFile.read(dir, 4).isEmpty(), "a file of the wrong size is not a heartbeat");
        Files.createSymbolicLink(HeartbeatFile.file(dir, 5), HeartbeatFile.file(dir, 2));
        assertTrue(HeartbeatFile.read(dir, 5).isEmpty(), "a link is never followed");
    }

    @Test
    void aDirectiveTravelsFromTheCoordinatorToTheRanks() throws Exception {
        assertFalse(LaunchDirective.of(env(dir)).rollBack(), "no directive: the ranks decide as always");
        LaunchDirective.write(dir, new LaunchDirective(true, "L1 v800 expected\n41.0 s"));
        assertEquals(new LaunchDirective(true, "L1 v800 expected 41.0 s"), LaunchDirective.of(env(dir)));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
                dir.resolve(LaunchDirective.FILE))));
        LaunchDirective estimated = LaunchDirective.none().withEstimates(3600.5, 0.9);
        LaunchDirective.write(dir, estimated);
        assertEquals(estimated, LaunchDirective.of(env(dir)), "the coordinator's MTBF and R reach the ranks");
        // The version the coordinator chose, or the beginning, travels too.
        for (long version : new long[] {800, 0, LaunchDirective.BEGINNING}) {
            LaunchDirective chosen = new LaunchDirective(true, "chosen").restoring(version, version != 0);
            LaunchDirective.write(dir, chosen);
            assertEquals(chosen, LaunchDirective.of(env(dir)));
        }
        Files.writeString(dir.resolve(LaunchDirective.FILE), "nvm=rollback\nl2-rebuild=maybe\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LaunchDirective.of(env(dir))).getMessage()
                .endsWith("l2-rebuild=maybe is neither on nor off"));
        for (String bad : List.of("-5", "v800", "9223372036854775807", "99999999999999999999")) {
            Files.writeString(dir.resolve(LaunchDirective.FILE), "nvm=rollback\nrestore=" + bad + "\n");
            assertTrue(assertThrows(IllegalArgumentException.class, () -> LaunchDirective.of(env(dir))).getMessage()
                    .endsWith("restore=" + bad + " is neither beginning nor a checkpoint version"), bad);
        }
        Files.writeString(dir.resolve(LaunchDirective.FILE), "nvm=auto\nrecomputability=1.5\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LaunchDirective.of(env(dir))).getMessage()
                .endsWith("recomputability=1.5 is not a number from 0.0 to 1.0"));
        Files.writeString(dir.resolve(LaunchDirective.FILE), "nvm=maybe\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LaunchDirective.of(env(dir))).getMessage()
                .endsWith("nvm=maybe is neither auto nor rollback"));
        Files.writeString(dir.resolve(LaunchDirective.FILE), "x".repeat(5000));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LaunchDirective.of(env(dir))).getMessage()
                .contains("at most 4096 bytes"));
    }
}
