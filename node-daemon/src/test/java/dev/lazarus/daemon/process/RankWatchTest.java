package dev.lazarus.daemon.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.coordinator.state.JobCluster;
import dev.lazarus.coordinator.state.JobState;
import dev.lazarus.coordinator.state.StateRecords;
import dev.lazarus.mpi.launch.ExitStatusFiles;
import dev.lazarus.mpi.launch.HangWatch;
import dev.lazarus.mpi.launch.Heartbeat;
import dev.lazarus.mpi.launch.HeartbeatFile;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node daemon's rank watch against a real Hazelcast member and real heartbeat files: the beats it records, the
 * rank it finds hung only when that rank stopped first of the whole launch, the process it refuses to kill when it is
 * not one of the launch's ranks, and a status directory it does not trust.
 */
class RankWatchTest {
    private static final long MINUTE = 60_000;

    @TempDir
    Path root;

    private Path statusDir;
    private JobState state;
    private final List<String> said = new ArrayList<>();
    private final List<Heartbeat> beats = new ArrayList<>();
    private final List<Process> children = new ArrayList<>();

    @BeforeEach
    void startMember() throws Exception {
        statusDir = Files.createDirectory(root.resolve("status"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = Math.min(socket.getLocalPort(), 65535 - JobCluster.PORTS - 1);
        }
        PrintStream err = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        state = new JobCluster("watch", JobCluster.newToken(), "127.0.0.1", port, List.of("127.0.0.1:" + port))
                .start(null, "daemon-test", err);
    }

    @AfterEach
    void stop() {
        beats.forEach(Heartbeat::close);
        children.forEach(Process::destroyForcibly);
        state.close();
    }

    /** A heartbeat of {@code rank} in the status directory that has begun iteration {@code iteration} now. */
    private HeartbeatFile.HeartbeatSnapshot beating(int rank, int iteration) throws Exception {
        Heartbeat beat = Heartbeat.forRank(Map.of(ExitStatusFiles.ENV, statusDir.toString()), rank);
        beats.add(beat);
        beat.start(1, 100, 100, true, false, HeartbeatFile.Restore.NONE, 0);
        beat.beat(iteration);
        return HeartbeatFile.read(statusDir, rank).orElseThrow();
    }

    private RankWatch watch(String node) {
        return new RankWatch(state, node, said::add);
    }

    private void launch(long startedMillis) {
        state.putLaunch(new StateRecords.Launch(3, statusDir.toString(), 1000, 0, startedMillis, null));
    }

    @Test
    void itRecordsItsRanksBeatsAndSaysWhatItWatches() throws Exception {
        HeartbeatFile.HeartbeatSnapshot rank0 = beating(0, 7);
        launch(rank0.lastBeatMillis() - 1000);
        watch(rank0.node()).watchOnce(rank0.lastBeatMillis());
        assertEquals(List.of("watching ranks [0] of launch 3 (hang timeout 1.0 s)"), said);
        StateRecords.Beat recorded = state.beats().get(0);
        assertEquals(new StateRecords.Beat(0, rank0.node(), rank0.lastBeatMillis(), false), recorded);
        assertNull(state.launch().orElseThrow().hang(), "not silent for longer than the timeout");

        said.clear();
        watch("another-node").watchOnce(rank0.lastBeatMillis() + MINUTE);
        assertEquals(List.of(), said, "another node's daemon neither watches nor kills this node's rank");
        assertNull(state.launch().orElseThrow().hang());
    }

    /**
     * A heartbeat read before its node's name was in it (a rank's first write, torn by the read) is not taken for
     * another node's rank: once the name is there, the same watch watches the rank.
     */
    @Test
    void aHeartbeatReadWithoutItsNodesNameIsReadAgain() throws Exception {
        HeartbeatFile.HeartbeatSnapshot rank0 = beating(0, 7);
        launch(rank0.lastBeatMillis() - 1000);
        Path file = HeartbeatFile.file(statusDir, 0);
        int[] lengths = new int[2];
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            for (int slot = 0; slot < 2; slot++) { // the layout's two copies of 456 bytes; the name's length at 200
                lengths[slot] = intAt(channel, slot * 456L + 200);
                putInt(channel, slot * 456L + 200, 0);
            }
            RankWatch watch = watch(rank0.node());
            watch.watchOnce(rank0.lastBeatMillis());
            assertEquals(List.of(), said, "no rank of this node yet");
            for (int slot = 0; slot < 2; slot++) {
                putInt(channel, slot * 456L + 200, lengths[slot]);
            }
            watch.watchOnce(rank0.lastBeatMillis());
        }
        assertEquals(List.of("watching ranks [0] of launch 3 (hang timeout 1.0 s)"), said);
    }

    private static int intAt(FileChannel channel, long position) throws Exception {
        ByteBuffer buffer = ByteBuffer.allocate(4).order(ByteOrder.nativeOrder());
        channel.read(buffer, position);
        return buffer.getInt(0);
    }

    private static void putInt(FileChannel channel, long position, int value) throws Exception {
        channel.write(ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt(0, value), position);
    }

    @Test
    void aSilentRankThatStoppedFirstIsHungAndOnlyALaunchsRankIsKilled() throws Exception {
        HeartbeatFile.HeartbeatSnapshot rank0 = beating(0, 7);
        launch(rank0.lastBeatMillis() - 1000);
        watch(rank0.node()).watchOnce(rank0.lastBeatMillis() + MINUTE);
        // The heartbeat names this test's JVM, whose environment does not name the launch's status directory: the
        // daemon refuses to kill it, and says what it found.
        String hang = state.launch().orElseThrow().hang();
        assertTrue(hang != null && hang.startsWith("rank 0 silent for 60 s in iteration 7 (hang timeout 1 s): the node"
                + " daemon on " + rank0.node() + " found no process of the launch to kill"), String.valueOf(hang));
        assertTrue(said.contains("hang: " + hang), said.toString());
        assertTrue(state.events().stream().anyMatch(e -> e.kind().equals("hang") && e.launch() == 3
                && e.text().equals(hang)), state.events().toString());
    }

    @Test
    void aRankSilentInItsSetUpIsHungToo() throws Exception {
        // Rank 0 opened its heartbeat and did a step of set-up, then stopped before its main loop.
        Heartbeat beat = Heartbeat.forRank(Map.of(ExitStatusFiles.ENV, statusDir.toString()), 0);
        beats.add(beat);
        beat.setUpStep();
        HeartbeatFile.HeartbeatSnapshot rank0 = HeartbeatFile.read(statusDir, 0).orElseThrow();
        assertFalse(rank0.inMainLoop());
        launch(rank0.setUpBeatMillis() - 1000);
        watch(rank0.node()).watchOnce(rank0.setUpBeatMillis() + 500);
        assertEquals(new StateRecords.Beat(0, rank0.node(), rank0.setUpBeatMillis(), false), state.beats().get(0),
                "its set-up step is recorded as its last sign of life");
        watch(rank0.node()).watchOnce(rank0.setUpBeatMillis() + MINUTE);
        assertNull(state.launch().orElseThrow().hang(), "the launch's 1 s hang timeout is for iterations");
        watch(rank0.node()).watchOnce(rank0.setUpBeatMillis() + HangWatch.SET_UP_MINIMUM.toMillis() + MINUTE);
        String hang = state.launch().orElseThrow().hang();
        assertTrue(hang != null && hang.startsWith("rank 0 silent for 660 s in its set-up, before its main loop"
                + " (hang timeout outside the main loop 600 s)"), String.valueOf(hang));
    }

    @Test
    void aRankElsewhereThatStoppedFirstIsLeftToItsOwnNodesDaemon() throws Exception {
        HeartbeatFile.HeartbeatSnapshot rank0 = beating(0, 7);
        long started = rank0.lastBeatMillis() - 10_000;
        launch(started);
        // Rank 1, on another node, stopped beating 2 s before rank 0: rank 0 only waits for it.
        state.putBeat(new StateRecords.Beat(1, "elsewhere", rank0.lastBeatMillis() - 2000, false));
        // A beat from an earlier launch is older still, and does not count.
        state.putBeat(new StateRecords.Beat(2, "elsewhere", started - 5000, false));
        watch(rank0.node()).watchOnce(rank0.lastBeatMillis() + MINUTE);
        assertNull(state.launch().orElseThrow().hang(), said.toString());
        // Once rank 1's beat is newer than rank 0's, rank 0 is the one that stopped first.
        state.putBeat(new StateRecords.Beat(1, "elsewhere", rank0.lastBeatMillis() + 2000, false));
        watch(rank0.node()).watchOnce(rank0.lastBeatMillis() + MINUTE);
        assertTrue(state.launch().orElseThrow().hang().startsWith("rank 0 silent"), said.toString());
    }

    @Test
    void onlyAProcessWhoseEnvironmentNamesTheLaunchIsOneOfItsRanks() throws Exception {
        ProcessBuilder builder = new ProcessBuilder("sleep", "60");
        builder.environment().put(ExitStatusFiles.ENV, statusDir.toString());
        Process rank = builder.start();
        children.add(rank);
        ProcessBuilder other = new ProcessBuilder("sleep", "60");
        other.environment().put(ExitStatusFiles.ENV, statusDir + "-other");
        Process stranger = other.start();
        children.add(stranger);
        assertTrue(RankWatch.isRankOf(rank.toHandle(), statusDir));
        assertFalse(RankWatch.isRankOf(stranger.toHandle(), statusDir));
        assertFalse(RankWatch.isRankOf(ProcessHandle.current(), statusDir));
        assertTrue(rank.isAlive() && stranger.isAlive());
    }

    @Test
    void aStatusDirectoryOthersMayEnterIsNotWatched() throws Exception {
        HeartbeatFile.HeartbeatSnapshot rank0 = beating(0, 7);
        Files.setPosixFilePermissions(statusDir, PosixFilePermissions.fromString("rwxr-xr-x"));
        launch(rank0.lastBeatMillis() - 1000);
        RankWatch watch = watch(rank0.node());
        watch.watchOnce(rank0.lastBeatMillis() + MINUTE);
        watch.watchOnce(rank0.lastBeatMillis() + MINUTE);
        assertEquals(List.of("not watching the launch's ranks: its status directory " + statusDir + " is not a 0700"
                + " directory of this user"), said, "said once");
        assertNull(state.launch().orElseThrow().hang());
        assertTrue(state.beats().isEmpty());
        // A launch whose directory is gone (it ended) is not said at all.
        said.clear();
        state.putLaunch(new StateRecords.Launch(4, root.resolve("gone").toString(), 1000, 0, 0, null));
        watch.watchOnce(System.currentTimeMillis() + TimeUnit.MINUTES.toMillis(1));
        assertEquals(List.of(), said);
    }
}
