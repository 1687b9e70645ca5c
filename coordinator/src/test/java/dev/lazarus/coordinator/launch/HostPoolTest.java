package dev.lazarus.coordinator.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.store.level.l2.L2Scheme;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hosts across launches, asked through a real agent process: a script that answers as ssh does for a host that is
 * up (status 0), one that is down (status 255, "No route to host") and one that never answers.
 */
class HostPoolTest {
    @TempDir
    Path dir;

    private Path agent;
    private final ByteArrayOutputStream text = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(text, true, StandardCharsets.UTF_8);

    @BeforeEach
    void writeAgent() throws Exception {
        agent = dir.resolve("agent");
        Files.writeString(agent, """
                #!/bin/sh
                case "$1" in
                  dead*) echo "ssh: connect to host $1 port 22: No route to host" >&2; exit 255 ;;
                  slow*) exec sleep 30 ;;
                esac
                [ "$2" = true ] || exit 3
                """);
        Files.setPosixFilePermissions(agent, PosixFilePermissions.fromString("rwx------"));
    }

    private List<HostsFile.Entry> entries(String name, String text) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return HostsFile.entries(file, "--" + name);
    }

    private static LaunchPlan plan(Path hostsFile) {
        return new LaunchPlan(new LaunchRequest(6, Backend.OPENMPI, hostsFile, null, null, List.of(), List.of(),
                "npb.CG", List.of(), null), List.of("mpirun"), Map.of());
    }

    @Test
    void aHostThatDoesNotAnswerIsLostAndASpareTakesItsPlaceWithItsSettings() throws Exception {
        List<HostsFile.Entry> hosts = entries("hosts", "n1 slots=2\ndead2 slots=2 # the second\nn3 slots=2\n");
        List<HostsFile.Entry> spares = entries("spares", "# spares\nroot@s1 slots=8\ns2\n");
        Path written;
        try (HostPool pool = new HostPool(hosts, spares, new HostProbe(agent.toString(), Duration.ofSeconds(20)),
                null, new L2Sets(3, L2Scheme.XOR), err)) {
            HostLoss loss = pool.survey();
            assertEquals(1, loss.lost().size(), loss.toString());
            HostLoss.LostHost lost = loss.lost().getFirst();
            assertEquals(1, lost.node());
            assertEquals("dead2", lost.host());
            assertFalse(lost.reachable());
            assertTrue(lost.how().contains("exit status 255: ssh: connect to host dead2 port 22: No route to host"),
                    lost.how());
            assertTrue(text.toString(StandardCharsets.UTF_8).contains("lazarus: node dead2 was lost: it does not"
                    + " answer"), text.toString(StandardCharsets.UTF_8));
            List<LaunchRequest> planned = new ArrayList<>();
            Optional<LaunchPlan> next = pool.replaceUnreachable(plan(dir.resolve("hosts")), loss, request -> {
                planned.add(request);
                return new LaunchPlan(request, List.of("mpirun", "again"), Map.of());
            });
            assertTrue(next.isPresent());
            written = planned.getFirst().hostsFile();
            // The spare's user@host with the lost host's slots: the same ranks land in the same place.
            assertEquals(List.of("n1 slots=2", "root@s1 slots=2", "n3 slots=2"), Files.readAllLines(written)
                    .stream().filter(l -> !l.startsWith("#")).toList());
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(written)));
            assertEquals(1, pool.sparesLeft());
            assertTrue(text.toString(StandardCharsets.UTF_8).contains("lazarus: node dead2 is replaced by spare s1"
                    + " (host 2 of 3): its ranks start there and rebuild their L1 files from L2; 1 spare(s) left"),
                    text.toString(StandardCharsets.UTF_8));
            // Asked again, the hosts the job uses now all answer.
            assertFalse(pool.survey().any());
        }
        assertFalse(Files.exists(written), "the written host file goes with the job");
    }

    @Test
    void nothingLostKeepsThePlanAndTooFewSparesLeaveTheLostRanksToTheNodesLeft() throws Exception {
        List<HostsFile.Entry> hosts = entries("hosts", "n1 slots=2\ndead2\ndead3\n");
        try (HostPool pool = new HostPool(hosts, entries("spares", "s1\n"), new HostProbe(agent.toString(),
                Duration.ofSeconds(20)), null, new L2Sets(3, L2Scheme.XOR), err)) {
            LaunchPlan plan = plan(dir.resolve("hosts"));
            assertSame(plan, pool.replaceUnreachable(plan, HostLoss.NONE, r -> {
                throw new AssertionError("nothing to re-plan");
            }).orElseThrow());
            HostLoss loss = pool.survey();
            assertEquals(List.of("dead2", "dead3"), loss.unreachable().stream().map(HostLoss.LostHost::host).toList());
            assertTrue(pool.replaceable(loss) && pool.movesRanks(loss));
            LaunchPlan next = pool.replaceUnreachable(plan, loss, r -> new LaunchPlan(r, List.of("planned"),
                    Map.of())).orElseThrow();
            assertEquals(List.of("n1 slots=2"), Files.readAllLines(next.request().hostsFile()).stream()
                    .filter(l -> !l.startsWith("#")).toList(), "the lost hosts leave the host file");
            assertEquals(List.of("n1"), pool.nodes());
            assertTrue(text.toString(StandardCharsets.UTF_8).contains("lazarus: nodes [dead2, dead3] do not answer"
                    + " and only 1 spare host(s) are left: the job runs on the 1 node(s) left, its ranks restoring"
                    + " from L3 (the L2 sets change, so none rebuilds the moved ranks' files)"),
                    text.toString(StandardCharsets.UTF_8));
            assertEquals(1, pool.sparesLeft(), "the spare is kept for a later loss");
        }
        try (HostPool alone = new HostPool(entries("hosts", "dead1\n"), List.of(), new HostProbe(agent.toString(),
                Duration.ofSeconds(20)), null, L2Sets.NONE, err)) {
            HostLoss loss = alone.survey();
            assertFalse(alone.replaceable(loss), "no node is left to run the job on");
            assertTrue(alone.replaceUnreachable(plan(dir.resolve("hosts")), loss, r -> {
                throw new AssertionError("no plan without a node");
            }).isEmpty());
            assertTrue(text.toString(StandardCharsets.UTF_8).contains("1 node(s) do not answer, no spare host(s) are"
                    + " left (--spares) and no other node is left"), text.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    void aHostThatNeverAnswersIsUnreachableAfterTheTimeout() {
        long start = System.nanoTime();
        Map<String, String> unreachable = new HostProbe(agent.toString(), Duration.ofSeconds(1))
                .unreachable(List.of("n1", "slow2"));
        assertEquals(Map.of("slow2", "no answer within 1 s"), unreachable);
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(20).toNanos(), "not the agent's 30 s");
    }

    @Test
    void aSpareMustNotBeOneOfTheJobsHostsNorListedTwice() throws Exception {
        List<HostsFile.Entry> hosts = entries("hosts", "n1\nn2\n");
        IllegalArgumentException taken = assertThrows(IllegalArgumentException.class,
                () -> HostPool.checkSpares(hosts, entries("spares", "s1\nn2 slots=4\n")));
        assertEquals("--spares: host n2 is one of the job's hosts; a spare must be a host the job does not use",
                taken.getMessage());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> HostPool.checkSpares(hosts, entries("spares", "s1\ns1\n")));
        assertTrue(twice.getMessage().contains("host s1 is listed twice"), twice.getMessage());
        HostPool.checkSpares(hosts, entries("spares", "s1\ns2\n"));
    }

    @Test
    void twoLostNodesOfOneSetAreASetLoss() {
        HostLoss.LostHost a = new HostLoss.LostHost(0, "n1", true, "");
        HostLoss.LostHost b = new HostLoss.LostHost(2, "n3", false, "");
        HostLoss.LostHost c = new HostLoss.LostHost(3, "n4", false, "");
        assertEquals(Optional.empty(), new HostLoss(List.of(a, b), 2).lostSet(), "sets {0,1} and {2,3}");
        assertEquals(Optional.of(List.of("n3", "n4")), new HostLoss(List.of(a, b, c), 2).lostSet());
        assertEquals(Optional.of(List.of("n1", "n3")), new HostLoss(List.of(a, b), 4).lostSet());
        assertEquals(Optional.empty(), new HostLoss(List.of(a, b, c), 0).lostSet(), "no L2, no set");
    }

    /** PARTNER copies each node's files on the next node of its set: only a node lost with that partner is lost. */
    @Test
    void underPartnerOnlyANodeLostWithItsPartnerIsASetLoss() {
        HostLoss.LostHost n1 = new HostLoss.LostHost(0, "n1", false, "");
        HostLoss.LostHost n3 = new HostLoss.LostHost(2, "n3", false, "");
        HostLoss.LostHost n4 = new HostLoss.LostHost(3, "n4", false, "");
        HostLoss.LostHost n5 = new HostLoss.LostHost(4, "n5", false, "");
        // One set of 4: n1 and n3 are not each other's partners (n1's is n2, n3's is n4); XOR loses both.
        assertEquals(Optional.empty(), new HostLoss(List.of(n1, n3), 4, L2Scheme.PARTNER, 4).lostSet());
        assertEquals(Optional.of(List.of("n1", "n3")), new HostLoss(List.of(n1, n3), 4, L2Scheme.XOR, 4).lostSet());
        assertEquals(Optional.of(List.of("n3", "n4")), new HostLoss(List.of(n3, n4), 4, L2Scheme.PARTNER, 4)
                .lostSet());
        // n4 is the last of its set: its partner wraps round to n1.
        assertEquals(Optional.of(List.of("n1", "n4")), new HostLoss(List.of(n1, n4), 4, L2Scheme.PARTNER, 4)
                .lostSet());
        // Five nodes in sets of 3: the last set is {n4, n5}, and n5's partner is n4.
        assertEquals(Optional.of(List.of("n4", "n5")), new HostLoss(List.of(n4, n5), 3, L2Scheme.PARTNER, 5)
                .lostSet());
        assertEquals(Optional.empty(), new HostLoss(List.of(n1, n4), 3, L2Scheme.PARTNER, 5).lostSet(),
                "two sets");
    }
}
