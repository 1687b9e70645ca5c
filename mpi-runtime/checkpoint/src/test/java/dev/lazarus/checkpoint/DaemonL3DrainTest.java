package dev.lazarus.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.daemon.NodeDaemonConfig;
import dev.lazarus.mpi.testing.ThreadComm;
import dev.lazarus.store.format.ManifestFiles;
import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.testing.JobFiles;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * L3 drained by the node's daemon process for its ranks, on two thread ranks of one node with a real
 * {@code NodeDaemonMain}: the daemon drains while it lives; killed mid-run, the leader drains the node's ranks itself;
 * a launch that finds no daemon has each rank drain its own files; every version restores from L3.
 */
class DaemonL3DrainTest {
    private static final String JOB = "daemon-l3";
    private static final int RANKS = 2;
    private static final int VALUES = 20_000;

    @TempDir
    Path dir;
    private final List<String> log = Collections.synchronizedList(new ArrayList<>());

    private CheckpointSettings settings() {
        return NodeDaemonProcess.settings(dir, JOB, NodeDaemonConfig.PROCESS, 1, 0);
    }

    private static double[] state(int rank, long version) {
        double[] x = new double[VALUES];
        for (int i = 0; version > 0 && i < VALUES; i++) {
            x[i] = rank * 1e7 + version * 1e4 + i;
        }
        return x;
    }

    @Test
    void aDaemonKilledMidRunLeavesTheLeaderDrainingAndEveryVersionRestoresFromL3() throws Exception {
        NodeDaemonProcess.writeSecret(dir.resolve("secret"));
        CheckpointDirectory l3 = new CheckpointDirectory(dir.resolve("pfs"), JOB);
        try (NodeDaemonProcess daemon = NodeDaemonProcess.start("node0", JOB, dir.resolve("run"),
                dir.resolve("secret"))) {
            ThreadComm.run(RANKS, comm -> {
                double[] x = new double[VALUES];
                try (Checkpoints ckpt = Checkpoints.open(comm, settings(), log::add)) {
                    ckpt.protect("x", x);
                    for (long v = 1; v <= 3; v++) {
                        System.arraycopy(state(comm.rank(), v), 0, x, 0, VALUES);
                        assertTrue(ckpt.checkpoint(v).complete());
                        ckpt.awaitDrain();
                        comm.barrier();
                        if (v == 1 && comm.rank() == 0) {
                            daemon.kill(); // after version 1 reached L3 through it
                        }
                        comm.barrier();
                    }
                }
                return null;
            });
        }
        assertTrue(log.contains("rank 0: L3 drains run in the node daemons, each for its node's ranks, at background"
                + " priority"), log::toString);
        assertTrue(log.stream().anyMatch(line -> line.startsWith("rank 0: the node daemon of job " + JOB + " at ")
                && line.endsWith("; this node's L3 drains run in rank 0 until the next launch")), log::toString);
        for (long v = 1; v <= 3; v++) {
            for (int rank = 0; rank < RANKS; rank++) {
                assertTrue(ManifestFiles.read(l3.manifestFile(v, rank)).full(), "version " + v + " rank " + rank);
            }
        }
        assertTrue(log.stream().noneMatch(line -> line.contains("did not reach L3")), log::toString);

        // The next launch finds no daemon: each rank drains its own files; version 3 restores from L3.
        JobFiles.wipe(dir.resolve("l1"));
        log.clear();
        List<Long> restored = ThreadComm.run(RANKS, comm -> {
            double[] x = new double[VALUES];
            try (Checkpoints ckpt = Checkpoints.open(comm, settings(), log::add)) {
                ckpt.protect("x", x);
                long version = ckpt.restart().orElseThrow();
                assertArrayEquals(state(comm.rank(), version), x, "rank " + comm.rank());
                assertEquals("L3", ckpt.restoredFrom());
                System.arraycopy(state(comm.rank(), 4), 0, x, 0, VALUES);
                assertTrue(ckpt.checkpoint(4).complete());
                ckpt.awaitDrain();
                return version;
            }
        });
        assertEquals(List.of(3L, 3L), restored);
        assertTrue(log.stream().anyMatch(line -> line.startsWith("rank 0: node node0 cannot reach its node daemon to"
                + " drain L3: ") && line.endsWith("; its ranks drain L3 themselves")), log::toString);
        for (int rank = 0; rank < RANKS; rank++) {
            assertTrue(Files.exists(l3.manifestFile(4, rank)), "rank " + rank + " drained version 4 itself");
        }
    }
}
