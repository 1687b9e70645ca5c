package dev.lazarus.coordinator.it;

import dev.lazarus.checkpoint.CheckpointReport;
import dev.lazarus.checkpoint.CheckpointSettings;
import dev.lazarus.checkpoint.Checkpoints;
import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.MpiApplication;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Properties;

/**
 * Restores from checkpoint levels the ranks do not hold alike, in one run of two or more ranks with L1 and L3: every
 * version is written to both, then before each restore the last rank changes what it holds, the others not. Each
 * restore prints one line on rank 0, {@code case NAME: version V from LEVELS, wrong W, read R s}: V the newest
 * version any rank restored, W the elements of all ranks that differ from what V held, R the slowest rank's read.
 * <ol>
 *   <li>{@code alike}: nothing changed, every rank restores version 3 from L1;</li>
 *   <li>{@code l1-lost}: the last rank's L1 lost version 3 (L3 has it): version 3, that rank from L3;</li>
 *   <li>{@code l1-damaged}: the last rank's L1 copy of version 3 is damaged: version 3, that rank from L3;</li>
 *   <li>{@code lost-everywhere}: the last rank lost version 3 on both levels: version 2 for every rank, although
 *   the others hold 3.</li>
 *   <li>{@code relaunched}: the same files, restored by a new client, as a relaunched job would: each rank's search
 *   at open finds its own newest (3, and 2 on the last rank), and every rank restores 2.</li>
 * </ol>
 * Then a client opened with settings that differ on the last rank is refused on every rank: {@code case
 * settings-differ: refused on R of N ranks: MESSAGE} (rank 0's message).
 */
public final class RestoreAgreementProbeApp implements MpiApplication {
    private static final int ELEMENTS = 300_000;

    @Override
    public int run(Comm comm, String[] args) throws IOException, InterruptedException {
        CheckpointSettings settings = CheckpointSettings.fromSystem().conclude(getClass().getSimpleName());
        CheckpointDirectory l1 = new CheckpointDirectory(settings.l1Directory(), settings.jobId());
        CheckpointDirectory l3 = new CheckpointDirectory(settings.pfsDirectory().orElseThrow(), settings.jobId());
        boolean last = comm.rank() == comm.size() - 1;
        double[] x = new double[ELEMENTS];
        try (Checkpoints checkpoints = Checkpoints.open(comm, settings, System.err::println)) {
            checkpoints.protect("x", x);
            for (int v = 1; v <= 3; v++) {
                Arrays.fill(x, value(comm, v));
                CheckpointReport report = checkpoints.checkpoint(v);
                if (!report.complete()) {
                    throw new IOException("version " + v + " is not complete: " + report.error());
                }
            }
            checkpoints.awaitDrain();
            restore(comm, checkpoints, x, "alike");
            if (last) {
                Files.delete(l1.manifestFile(3, comm.rank()));
            }
            restore(comm, checkpoints, x, "l1-lost");
            if (last) {
                // The manifest back (the restore left the rest alone), one byte of the data flipped.
                Files.copy(l3.manifestFile(3, comm.rank()), l1.manifestFile(3, comm.rank()));
                flipLastByte(l1.dataFile(3, comm.rank()));
            }
            restore(comm, checkpoints, x, "l1-damaged");
            if (last) {
                Files.delete(l1.manifestFile(3, comm.rank()));
                Files.delete(l3.manifestFile(3, comm.rank()));
            }
            restore(comm, checkpoints, x, "lost-everywhere");
        }
        try (Checkpoints checkpoints = Checkpoints.open(comm, settings, System.err::println)) {
            checkpoints.protect("x", x);
            restore(comm, checkpoints, x, "relaunched");
        }
        refuseDifferingSettings(comm, last);
        return 0;
    }

    /** The last rank keeps one more L1 version than the others: no rank may open its client. */
    private static void refuseDifferingSettings(Comm comm, boolean last) {
        Properties properties = new Properties();
        properties.putAll(System.getProperties());
        if (last) {
            properties.setProperty(CheckpointSettings.KEEP, "3");
        }
        CheckpointSettings differing = new CheckpointSettings(properties, System.getenv())
                .conclude(RestoreAgreementProbeApp.class.getSimpleName());
        String refusal = "";
        try (Checkpoints checkpoints = Checkpoints.open(comm, differing, System.err::println)) {
            checkpoints.protect("x", new double[1]);
        } catch (IllegalArgumentException e) {
            refusal = e.getMessage();
        }
        long refused = comm.allreduce(refusal.isEmpty() ? 0L : 1L, ReduceOp.SUM);
        if (comm.rank() == 0) {
            System.out.printf(Locale.ROOT, "case settings-differ: refused on %d of %d ranks: %s%n", refused,
                    comm.size(), refusal);
        }
    }

    private static void restore(Comm comm, Checkpoints checkpoints, double[] x, String name) {
        Arrays.fill(x, -1);
        OptionalLong restored = checkpoints.restart();
        // Against the newest version any rank says it restored: a rank that kept another one counts all wrong.
        long version = comm.allreduce(restored.orElse(-1), ReduceOp.MAX);
        long wrong = 0;
        for (double element : x) {
            if (element != value(comm, version)) {
                wrong++;
            }
        }
        wrong = comm.allreduce(wrong, ReduceOp.SUM);
        if (comm.rank() == 0) {
            System.out.printf(Locale.ROOT, "case %s: version %d from %s, wrong %d, read %.4f s%n", name, version,
                    checkpoints.restoredFrom(), wrong, checkpoints.restoreReadTime().toNanos() / 1e9);
        }
    }

    /** What every element of a rank holds at a version: a different value per rank and version. */
    private static double value(Comm comm, long version) {
        return comm.rank() * 100 + version;
    }

    private static void flipLastByte(Path file) throws IOException {
        byte[] data = Files.readAllBytes(file);
        data[data.length - 1] ^= 1;
        Files.write(file, data);
    }
}
