package dev.lazarus.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.daemon.NodeDaemonConfig;
import dev.lazarus.mpi.testing.ThreadComm;
import dev.lazarus.store.catalog.Catalog;
import dev.lazarus.store.catalog.VersionStatus;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * L3 retention on three thread ranks: every 2nd version drains to L3, which keeps 2 complete versions. Before the
 * first launch, L3 holds leftovers of a launch that broke off: a lone part of version 3 and of version 9. Each launch
 * checkpoints up to a version whose predecessor has fully drained, so the end state is known; then L1 is wiped and
 * the next launch must restore from L3. With the node's daemon process draining for the ranks too.
 */
class PfsRetentionTest {
    private static final String JOB = "pfs-keep";
    private static final int RANKS = 3;
    private static final int VALUES = 5000;

    @TempDir
    Path dir;
    private final List<String> log = Collections.synchronizedList(new ArrayList<>());

    /** The node daemon mode the launches use: embedded (each rank drains its own files) or a daemon process. */
    private String mode = NodeDaemonConfig.EMBEDDED;

    private CheckpointSettings settings() {
        return NodeDaemonProcess.settings(dir, JOB, mode, 2, 2);
    }

    /** @return what a rank's protected array holds at a version (all zero before the first) */
    private static double[] state(int rank, long version) {
        double[] x = new double[VALUES];
        for (int i = 0; version > 0 && i < VALUES; i++) {
            x[i] = rank * 1e6 + version * 1e3 + i;
        }
        return x;
    }

    /**
     * One launch: every rank restarts, checks what it restored, and checkpoints the versions after it up to
     * {@code last}; before the last, every rank waits for its drain, so the last checkpoint agrees that the newest
     * drained version is complete on L3.
     *
     * @return per rank, the restored version and where from
     */
    private List<String> launch(long last) throws Exception {
        return ThreadComm.run(RANKS, comm -> {
            double[] x = new double[VALUES];
            try (Checkpoints ckpt = Checkpoints.open(comm, settings(), log::add)) {
                ckpt.protect("x", x);
                long restored = ckpt.restart().orElse(0);
                assertArrayEquals(state(comm.rank(), restored), x, "rank " + comm.rank());
                for (long v = restored + 1; v <= last; v++) {
                    System.arraycopy(state(comm.rank(), v), 0, x, 0, VALUES);
                    if (v == last) {
                        ckpt.awaitDrain();
                    }
                    assertTrue(ckpt.checkpoint(v).complete(), "version " + v);
                }
                return restored + " " + ckpt.restoredFrom();
            }
        });
    }

    /**
     * Both ways L3 is drained: by each rank's drain thread, and by the node's daemon process for all the node's ranks
     * (handed over by the leader, rank 0), where the other ranks learn of each drain through the agreement only.
     */
    @ParameterizedTest
    @ValueSource(strings = {NodeDaemonConfig.EMBEDDED, NodeDaemonConfig.PROCESS})
    void l3KeepsTheNewestTwoCompleteVersionsAndRestartStillWorks(String mode) throws Exception {
        this.mode = mode;
        NodeDaemonProcess.writeSecret(dir.resolve("secret"));
        try (NodeDaemonProcess daemon = mode.equals(NodeDaemonConfig.PROCESS)
                ? NodeDaemonProcess.start("node0", JOB, dir.resolve("run"), dir.resolve("secret")) : null) {
            keepsTheNewestTwo();
        }
        boolean inDaemon = log.contains("rank 0: L3 drains run in the node daemons, each for its node's ranks, at"
                + " background priority");
        assertEquals(mode.equals(NodeDaemonConfig.PROCESS), inDaemon, log::toString);
    }

    private void keepsTheNewestTwo() throws Exception {
        CheckpointDirectory pfs = new CheckpointDirectory(dir.resolve("pfs"), JOB);
        for (long leftover : new long[] {3, 9}) {
            pfs.createVersion(leftover);
            Files.write(pfs.manifestFile(leftover, 0), new byte[] {1, 2, 3});
        }

        // Versions 2, 4, 6, 8 and 10 drain. 10 and 8 are kept; 9 is incomplete but between them, so it stays.
        assertEquals(List.of("0 ", "0 ", "0 "), launch(11));
        assertEquals(List.of(8L, 9L, 10L), pfs.versions());
        assertEquals(List.of(8L, 10L), complete(pfs));

        // From L3 at 10; 12 and 14 drain, and 8, 9 and 10 are older than both.
        wipe(dir.resolve("l1"));
        assertEquals(List.of("10 L3", "10 L3", "10 L3"), launch(15));
        assertEquals(List.of(12L, 14L), pfs.versions());
        assertEquals(List.of(12L, 14L), complete(pfs));

        wipe(dir.resolve("l1"));
        assertEquals(List.of("14 L3", "14 L3", "14 L3"), launch(14));
        assertFalse(log.stream().anyMatch(line -> line.contains("pruning L3")), log::toString);
    }

    private static List<Long> complete(CheckpointDirectory level) throws IOException {
        return new Catalog(level).scan(false).stream().filter(VersionStatus::complete).map(VersionStatus::version)
                .toList();
    }

    private static void wipe(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
