package dev.lazarus.store.export;

import dev.lazarus.store.ProtectedRegion;
import dev.lazarus.store.Variable;
import dev.lazarus.store.incremental.ChainRestorer;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The composed memory of one rank at a time: when jhdf asks for a variable of a rank other than the one held, the held
 * rank's memory is freed and the asked rank is restored with {@link ChainRestorer#restore}, exactly as a restart would
 * restore it. jhdf writes a group's datasets one after another, so each rank is restored once.
 */
final class RankMemory implements AutoCloseable {
    private final CheckpointDirectory directory;
    private final long version;
    private final int worldSize;
    private final Map<Integer, List<Variable>> variables;
    private final String context;
    private Arena arena;
    private int heldRank = -1;
    private List<ProtectedRegion> regions = List.of();

    /**
     * @param variables per rank, the variables its chain holds, in manifest order
     * @param context   the start of error messages, "export job=... version=..."
     */
    RankMemory(CheckpointDirectory directory, long version, int worldSize, Map<Integer, List<Variable>> variables,
               String context) {
        this.directory = directory;
        this.version = version;
        this.worldSize = worldSize;
        this.variables = variables;
        this.context = context;
    }

    /**
     * @return the composed bytes of variable {@code index} of {@code rank}, valid until another rank is asked for
     * @throws UncheckedIOException wrapping the restore's failure, its message naming the rank and the reason
     */
    MemorySegment variable(int rank, int index) {
        if (rank != heldRank) {
            restore(rank);
        }
        return regions.get(index).memory();
    }

    private void restore(int rank) {
        release();
        arena = Arena.ofConfined();
        List<ProtectedRegion> restored = new ArrayList<>();
        for (Variable variable : variables.get(rank)) {
            restored.add(new ProtectedRegion(variable, arena.allocate(variable.byteSize(), variable.type().size())));
        }
        try {
            ChainRestorer.restore(directory, version, rank, worldSize, restored);
        } catch (IOException e) {
            release();
            throw new UncheckedIOException(Hdf5Exporter.inContext(context + " rank=" + rank, e));
        }
        regions = restored;
        heldRank = rank;
    }

    private void release() {
        if (arena != null) {
            arena.close();
            arena = null;
        }
        regions = List.of();
        heldRank = -1;
    }

    @Override
    public void close() {
        release();
    }
}
