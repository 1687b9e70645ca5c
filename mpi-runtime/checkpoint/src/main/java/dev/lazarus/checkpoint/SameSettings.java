package dev.lazarus.checkpoint;

import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.ReduceOp;
import net.openhft.hashing.LongHashFunction;

/**
 * Checks that every rank concluded the same {@link CheckpointSettings#sharedByEveryRank shared settings}, in one
 * allreduce. Ranks that differ (a setting in the environment of some nodes only) would call the collective
 * checkpoint steps at different iterations and hang, or prune versions another rank still restores from.
 *
 * <p>It is also the client's first allreduce: in a new JVM the first one took 11-22 ms (4 ranks on 2 cores, Open
 * MPI), the next ones well under 1 ms, and a relaunched rank that had not made one before paid 22-34 ms in its first
 * restore's agreement.
 */
final class SameSettings {
    private SameSettings() {
    }

    /**
     * Collective.
     *
     * @throws IllegalArgumentException on every rank, naming this rank's settings, when any two ranks differ
     */
    static void check(Comm comm, CheckpointSettings settings) {
        String shared = settings.sharedByEveryRank();
        long hash = fingerprint(shared);
        // Under MAX: the largest fingerprint, and the complement of the smallest.
        long[] cells = {hash, ~hash};
        comm.allreduce(cells, 0, cells, 0, cells.length, ReduceOp.MAX);
        if (cells[0] != ~cells[1]) {
            throw new IllegalArgumentException("the ranks were started with different checkpoint settings (rank "
                    + comm.rank() + ": " + shared + "); every rank of a job needs the same lazarus.ckpt.* settings");
        }
    }

    /** XXH3-64 of the line's characters: equal lines, equal hashes; unequal ones almost never. */
    static long fingerprint(String line) {
        return LongHashFunction.xx3().hashChars(line);
    }
}
