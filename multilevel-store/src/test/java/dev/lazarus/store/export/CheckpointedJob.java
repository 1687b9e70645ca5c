package dev.lazarus.store.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.store.ElementType;
import dev.lazarus.store.ProtectedRegion;
import dev.lazarus.store.Variable;
import dev.lazarus.store.dirty.AllPagesScanner;
import dev.lazarus.store.incremental.CheckpointStats;
import dev.lazarus.store.incremental.IncrementalCheckpointer;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * A two-rank job checkpointed through {@link IncrementalCheckpointer}: version 1 full, version 2 an increment with a
 * few changes, version 3 another increment. Each rank protects a variable of every element type, a 2-D and a 3-D
 * one, and two with no elements. {@link #atVersion2} keeps a copy of each rank's memory as it was at version 2.
 */
final class CheckpointedJob {
    static final String JOB = "job1";
    static final int WORLD = 2;

    /** Per rank, per variable: the memory at version 2 as a flat Java array, in protection order. */
    final List<List<Object>> atVersion2 = new ArrayList<>();
    final List<List<Variable>> variables = new ArrayList<>();

    CheckpointedJob(CheckpointDirectory directory) throws IOException {
        for (int rank = 0; rank < WORLD; rank++) {
            checkpointRank(directory, rank);
        }
    }

    private void checkpointRank(CheckpointDirectory directory, int rank) throws IOException {
        byte[] bytes = new byte[300];
        int[] ints = new int[150];
        long[] longs = new long[100];
        float[] floats = new float[120];
        double[] x = new double[4 * 3];
        int[] grid = new int[2 * 3 * 4];
        for (int i = 0; i < 300; i++) {
            bytes[i] = (byte) (i * 7 + rank);
            if (i < ints.length) {
                ints[i] = i * 1000 + rank;
            }
            if (i < longs.length) {
                longs[i] = (long) i << 33 | rank;
            }
            if (i < floats.length) {
                floats[i] = i * 0.25f + rank;
            }
        }
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 3; j++) {
                x[i * 3 + j] = i * 10 + j + 0.5 + rank * 100;
            }
        }
        for (int i = 0; i < grid.length; i++) {
            grid[i] = (i / 12) * 100 + (i / 4 % 3) * 10 + i % 4 + rank * 1000;
        }
        List<ProtectedRegion> regions = List.of(
                ProtectedRegion.of("bytes", ElementType.BYTE, MemorySegment.ofArray(bytes)),
                ProtectedRegion.of("ints", ElementType.INT, MemorySegment.ofArray(ints)),
                ProtectedRegion.of("longs", ElementType.LONG, MemorySegment.ofArray(longs)),
                ProtectedRegion.of("floats", ElementType.FLOAT, MemorySegment.ofArray(floats)),
                new ProtectedRegion(new Variable("x", ElementType.DOUBLE, new long[] {4, 3}),
                        MemorySegment.ofArray(x)),
                new ProtectedRegion(new Variable("grid", ElementType.INT, new long[] {2, 3, 4}),
                        MemorySegment.ofArray(grid)),
                ProtectedRegion.of("empty", ElementType.DOUBLE, MemorySegment.ofArray(new double[0])),
                new ProtectedRegion(new Variable("empty.3d", ElementType.FLOAT, new long[] {3, 0, 2}),
                        MemorySegment.ofArray(new float[0])));
        try (var checkpointer = new IncrementalCheckpointer(directory, rank, WORLD, 256, 10,
                new AllPagesScanner("all pages"))) {
            regions.forEach(checkpointer::protect);
            assertTrue(checkpointer.checkpoint(1).full());
            bytes[299] = (byte) -128;
            longs[0] = Long.MIN_VALUE;
            x[2 * 3 + 1] = -7.25;
            grid[23] = -1 - rank;
            CheckpointStats second = checkpointer.checkpoint(2);
            assertEquals(1, second.parentVersion(), "version 2 must be an increment");
            assertTrue(second.dataBytes() < 300 + 600 + 800 + 480 + 96 + 96, "version 2 holds only changed blocks");
            atVersion2.add(List.of(bytes.clone(), ints.clone(), longs.clone(), floats.clone(), x.clone(),
                    grid.clone(), new double[0], new float[0]));
            variables.add(regions.stream().map(ProtectedRegion::variable).toList());
            // Changes after version 2, so that an export of version 3's parent must not see them.
            ints[0] = 42;
            x[0] = 1e300;
            assertEquals(2, checkpointer.checkpoint(3).parentVersion());
        }
    }
}
