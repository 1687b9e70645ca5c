package dev.lazarus.coordinator.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job's state in real Hazelcast members (three in this JVM, on the loopback): one member crashes and nothing is
 * lost; the whole cluster ends and a new one, as a requeued job starts, loads the state back from disk; what is on
 * disk and cannot be trusted is skipped with a reason.
 */
class JobStateTest {
    @TempDir
    Path root;

    private final List<JobState> started = new ArrayList<>();
    private final ByteArrayOutputStream errors = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(errors, true, StandardCharsets.UTF_8);

    private static final StateRecords.Job JOB = new StateRecords.Job("heat", "solver.HEAT", List.of("--class", "A"),
            2, List.of("lzh1", "lzh2"), List.of(), 3, 1_700_000_000_000L, "running");

    @AfterEach
    void stopMembers() {
        for (JobState state : started) {
            try {
                state.close();
            } catch (RuntimeException e) {
                // already gone (terminated by the test)
            }
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return Math.min(socket.getLocalPort(), 65535 - JobCluster.PORTS - 3);
        }
    }

    private List<JobState> cluster(int members, String token, StateFiles files) throws Exception {
        int port = freePort();
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < members; i++) {
            addresses.add("127.0.0.1:" + (port + i));
        }
        List<JobState> states = new ArrayList<>();
        for (int i = 0; i < members; i++) {
            JobState state = new JobCluster("heat", token, "127.0.0.1", port + i, addresses).start(files, err);
            started.add(state);
            states.add(state);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (states.getFirst().members() < members || !states.getFirst().safe()) {
            assertTrue(System.nanoTime() < deadline, "the members did not form one cluster with its backups in place");
            Thread.sleep(50);
        }
        return states;
    }

    private static void write(JobState state) {
        state.putJob(JOB);
        state.putRank(new StateRecords.Rank(0, "lzh1", 1216, true, 1_700_000_100_000L, 3.2e-4));
        state.putRank(new StateRecords.Rank(1, "lzh2", 1215, true, 1_700_000_100_001L, null));
        state.putVersion(new StateRecords.Version("L1", 1200, 4_194_304, 0.001, true));
        state.putVersion(new StateRecords.Version("L3", 800, 4_194_304, 0.005, true));
        for (int i = 0; i < 3; i++) {
            state.addEvent(new StateRecords.Event(1_700_000_000_000L + i, 1 + i / 2, i == 1 ? "failure" : "launch",
                    "event " + i));
        }
        state.putStats(new StateRecords.Stats(1, 0, 0, 3.2e-4, 12.5, 12.5, Map.of("L1", 4e9, "L3", 0.8e9)));
    }

    private static void assertHoldsEverything(JobState state) {
        assertEquals(Optional.of(JOB), state.job());
        assertEquals(List.of(0, 1), state.ranks().stream().map(StateRecords.Rank::rank).toList());
        assertEquals(null, state.ranks().get(1).iterationSeconds(), "not measured stays unmeasured");
        assertEquals(List.of("L1-1200", "L3-800"), state.catalog().stream()
                .map(v -> v.level() + "-" + v.version()).toList());
        assertEquals(List.of("event 0", "event 1", "event 2"), state.events().stream()
                .map(StateRecords.Event::text).toList());
        assertEquals(12.5, state.stats().orElseThrow().mtbfSeconds());
    }

    /**
     * A new member opens every state map at once, before anything is written: opened on first use, one after the
     * other, each waited a second or more for its load, and the first records with it.
     */
    @Test
    void aNewMemberOpensEveryStateMapBeforeItsFirstWrite() throws Exception {
        JobState state = cluster(1, JobCluster.newToken(), new StateFiles(root, "heat")).getFirst();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!state.openMaps().containsAll(StateMaps.ALL)) {
            assertTrue(System.nanoTime() < deadline, "maps open: " + state.openMaps());
            Thread.sleep(20);
        }
        assertEquals(Optional.empty(), state.job(), "nothing was written");
    }

    @Test
    void losingAnyOneMemberLosesNothing() throws Exception {
        List<JobState> members = cluster(3, JobCluster.newToken(), null);
        write(members.getFirst());
        // The launcher host's member dies without a word (SIGKILL, node lost): no graceful migration.
        members.getFirst().crash();
        awaitSurvivors(members.get(1), 2);
        assertHoldsEverything(members.get(1));
        assertHoldsEverything(members.get(2));
    }

    @Test
    void theCoordinatorsMemberFindsEverythingItWroteAfterAnotherMemberIsLost() throws Exception {
        List<JobState> members = cluster(3, JobCluster.newToken(), new StateFiles(root, "heat"));
        write(members.getFirst());
        // A node daemon's member is killed with its node.
        members.get(1).crash();
        awaitSurvivors(members.getFirst(), 2);
        assertEquals(9, members.getFirst().writtenCount());
        assertEquals(List.of(), members.getFirst().missing());
    }

    /**
     * Waits until the member sees only the survivors and has promoted the lost member's partitions from their backups.
     * The member count alone came too early once: a read right after it found the job record missing (CI, 0c07f5b).
     */
    private static void awaitSurvivors(JobState member, int survivors) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (member.members() != survivors || !member.safe()) {
            assertTrue(System.nanoTime() < deadline, "the crash was not noticed, or the partitions not promoted");
            Thread.sleep(50);
        }
    }

    /**
     * The check can fail: three of four members lost at once take the records the writer's member held no copy of
     * (one backup covers one loss), and the writer's member says which. In memory only: with a state directory,
     * Hazelcast may load a lost partition's entries back from it, and then nothing is missing.
     */
    @Test
    void membersLostAtOnceLoseRecordsAndTheWriterSaysWhich() throws Exception {
        List<JobState> members = cluster(4, JobCluster.newToken(), null);
        // 100 events: the writer's member holds neither copy of each with probability 1/2, so that none is lost has a
        // probability of 2^-100 (when the three go down before the cluster can copy anything to the fourth).
        for (int i = 0; i < 100; i++) {
            members.getFirst().addEvent(new StateRecords.Event(1_700_000_000_000L + i, 1, "launch", "event " + i));
        }
        // All at once, as nodes of one rack losing power: one after the other, the cluster would re-replicate between.
        List<Thread> crashes = members.subList(1, 4).stream()
                .map(member -> Thread.ofPlatform().start(member::crash)).toList();
        for (Thread crash : crashes) {
            crash.join();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (members.getFirst().members() != 1) {
            assertTrue(System.nanoTime() < deadline, "the crashes were not noticed");
            Thread.sleep(50);
        }
        List<String> missing = members.getFirst().missing();
        assertFalse(missing.isEmpty(), "no record lost with three of four members");
        assertTrue(missing.stream().allMatch(key -> key.startsWith(StateMaps.EVENTS + "/")), missing.toString());
        assertEquals(100 - missing.size(), members.getFirst().events().size(), "what is left is what is not missing");
    }

    @Test
    void aNewClusterOfTheJobLoadsItsStateFromDisk() throws Exception {
        StateFiles files = new StateFiles(root, "heat");
        List<JobState> first = cluster(2, JobCluster.newToken(), files);
        write(first.getFirst());
        for (JobState member : first) {
            member.close();
        }
        started.clear();
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
                files.jobDirectory().resolve(StateMaps.EVENTS))));
        try (var entries = Files.list(files.jobDirectory().resolve(StateMaps.EVENTS))) {
            for (Path entry : entries.toList()) {
                assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(entry)));
            }
        }
        StateSnapshot onDisk = StateSnapshot.read(files);
        assertEquals(Optional.of(JOB), onDisk.job());
        assertEquals(3, onDisk.events().size());
        assertEquals(List.of(), onDisk.skipped());
        String table = new StateReport(onDisk).table();
        assertTrue(table.contains("restores measured: L1 4000.0 MB/s, L3 800.0 MB/s"), table);
        assertTrue(table.contains("L3 v800             4.2 MB  restore 0.005 s"), table);

        JobState requeued = cluster(1, JobCluster.newToken(), files).getFirst();
        assertHoldsEverything(requeued);
    }

    @Test
    void entriesThatCannotBeTrustedAreSkippedWithAReason() throws Exception {
        StateFiles files = new StateFiles(root, "heat");
        files.put(StateMaps.EVENTS, "0000000000001-coordinator-000000",
                StateJson.write(new StateRecords.Event(1, 1, "launch", "good")));
        Path events = files.jobDirectory().resolve(StateMaps.EVENTS);
        Files.writeString(events.resolve("0000000000002-coordinator-000001.json"), "[1, 2]");
        Files.writeString(events.resolve("0000000000003-coordinator-000002.json"), "{\"timeMillis\": \"soon\"}");
        Files.write(events.resolve("0000000000004-coordinator-000003.json"), new byte[StateFiles.MAX_ENTRY_BYTES + 1]);
        Files.writeString(events.resolve("bad name!.json"), "{}");
        Files.createSymbolicLink(events.resolve("0000000000005-coordinator-000004.json"),
                events.resolve("0000000000001-coordinator-000000.json"));
        StateSnapshot snapshot = StateSnapshot.read(files);
        assertEquals(List.of("good"), snapshot.events().stream().map(StateRecords.Event::text).toList());
        assertEquals(3, snapshot.skipped().size(), snapshot.skipped().toString());
        assertTrue(snapshot.skipped().get(2).contains("exceeds " + StateFiles.MAX_ENTRY_BYTES),
                snapshot.skipped().toString());

        JobState member = cluster(1, JobCluster.newToken(), files).getFirst();
        assertEquals(List.of("good"), member.events().stream().map(StateRecords.Event::text).toList());
        String said = errors.toString(StandardCharsets.UTF_8);
        assertTrue(said.contains("lazarus: state events/0000000000002-coordinator-000001 skipped: not a JSON object"),
                said);
        assertTrue(Files.exists(events.resolve("0000000000002-coordinator-000001.json")), "never deleted");
    }

    @Test
    void noKeyOrMapNameReachesOutsideTheJobsDirectory() {
        StateFiles files = new StateFiles(root, "heat");
        for (String bad : List.of("../escape", "a/b", "", ".hidden")) {
            assertThrows(IllegalArgumentException.class, () -> files.put(StateMaps.EVENTS, bad, "{}"), bad);
            assertThrows(IllegalArgumentException.class, () -> files.put(bad, "key", "{}"), bad);
        }
        assertThrows(IllegalArgumentException.class, () -> new StateFiles(root, ".."));
    }
}
