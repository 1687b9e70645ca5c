package dev.lazarus.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.daemon.l2.wire.JobSecret;
import dev.lazarus.mpi.testing.ThreadComm;
import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.testing.JobFiles;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three thread ranks, each a node with its own RAM disk and an embedded daemon: a node whose L1 lost the version the
 * coordinator chose rebuilds it from its XOR set as soon as {@link Checkpoints#prepareRestart} is called, before the
 * restore, which then reads the rebuilt files.
 */
class EarlyRebuildTest {
    private static final String JOB = "early";
    private static final int NODES = 3;
    private static final long VERSION = 2;

    @TempDir
    Path dir;
    private final ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();

    private CheckpointSettings settings(int rank) {
        Properties p = new Properties();
        p.setProperty(CheckpointSettings.JOB_ID, JOB);
        p.setProperty(CheckpointSettings.NODE, "node" + rank);
        p.setProperty(CheckpointSettings.L1_DIR, l1Root(rank).toString());
        p.setProperty(CheckpointSettings.L2_SECRET, dir.resolve("secret").toString());
        p.setProperty(CheckpointSettings.L2_BIND, "127.0.0.1");
        return new CheckpointSettings(p, Map.of()).conclude("app");
    }

    private Path l1Root(int rank) {
        return dir.resolve("l1-node" + rank);
    }

    /** A version changes the first third of the elements only: version 2 is an increment of version 1. */
    private static double[] state(int rank, long version) {
        double[] x = new double[300_000];
        for (int i = 0; i < x.length; i++) {
            x[i] = rank * 1e6 + (i < x.length / 3 ? version * 1e3 : 0) + i;
        }
        return x;
    }

    @Test
    void aNodeThatLostTheChosenVersionRebuildsItBeforeTheRestore() throws Exception {
        JobSecret.create(dir.resolve("secret"));
        ThreadComm.run(NODES, comm -> {
            double[] x = new double[300_000];
            try (Checkpoints ckpt = Checkpoints.open(comm, settings(comm.rank()), log::add)) {
                ckpt.protect("x", x);
                for (long v = 1; v <= VERSION; v++) {
                    System.arraycopy(state(comm.rank(), v), 0, x, 0, x.length);
                    CheckpointReport report = ckpt.checkpoint(v);
                    assertTrue(report.complete(), report::error);
                }
                ckpt.awaitDrain();
            }
            return null;
        });
        JobFiles.wipe(l1Root(1));
        log.clear();

        List<double[]> restored = ThreadComm.run(NODES, comm -> {
            double[] x = new double[300_000];
            try (Checkpoints ckpt = Checkpoints.open(comm, settings(comm.rank()), log::add)) {
                ckpt.prepareRestart(VERSION, true);
                if (comm.rank() == 1) {
                    // The rebuild runs on its own: node 1's files come back before anyone asks for a restore.
                    Path manifest = new CheckpointDirectory(l1Root(1), JOB).manifestFile(VERSION, 1);
                    long deadline = System.nanoTime() + 20_000_000_000L;
                    while (!Files.exists(manifest) && System.nanoTime() < deadline) {
                        Thread.sleep(10);
                    }
                    assertTrue(Files.exists(manifest), "rebuilt before the restore");
                }
                ckpt.protect("x", x);
                assertEquals(OptionalLong.of(VERSION), ckpt.restart(VERSION, true));
                assertEquals("L1 and L2", ckpt.restoredFrom());
            }
            return x;
        });
        for (int rank = 0; rank < NODES; rank++) {
            assertArrayEquals(state(rank, VERSION), restored.get(rank), "rank " + rank);
        }
        String text = String.join("\n", log);
        assertTrue(text.matches("(?s).*rank 1: node node1 rebuilt versions \\[1, 2] from its XOR set in \\d+\\.\\d{3}"
                + " s, started with the launch's set-up \\(the restore waited \\d+\\.\\d{3} s for it\\).*"), text);
    }

    @Test
    void noVersionNamedMeansNoEarlyRebuild() throws Exception {
        JobSecret.create(dir.resolve("secret"));
        ThreadComm.run(NODES, comm -> {
            double[] x = state(comm.rank(), 1);
            try (Checkpoints ckpt = Checkpoints.open(comm, settings(comm.rank()), log::add)) {
                ckpt.protect("x", x);
                assertTrue(ckpt.checkpoint(1).complete());
                ckpt.awaitDrain();
            }
            return null;
        });
        JobFiles.wipe(l1Root(1));
        log.clear();
        ThreadComm.run(NODES, comm -> {
            try (Checkpoints ckpt = Checkpoints.open(comm, settings(comm.rank()), log::add)) {
                ckpt.prepareRestart(Long.MAX_VALUE, true); // the newest, whichever it is: nothing to start early
                ckpt.prepareRestart(1, false); // the coordinator chose L3 over the rebuild
                comm.barrier();
                Thread.sleep(300);
                assertFalse(Files.exists(new CheckpointDirectory(l1Root(1), JOB).manifestFile(1, 1)));
                ckpt.protect("x", new double[300_000]);
                assertEquals(OptionalLong.of(1), ckpt.restart(1, true));
            }
            return null;
        });
        String text = String.join("\n", log);
        assertTrue(text.contains("rank 1: node node1 rebuilt versions [1] from its XOR set in"), text);
        assertFalse(text.contains("started with the launch's set-up"), text);
    }
}
