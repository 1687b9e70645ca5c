package dev.lazarus.store.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.lazarus.store.ElementType;
import dev.lazarus.store.ProtectedRegion;
import dev.lazarus.store.dirty.AllPagesScanner;
import dev.lazarus.store.incremental.IncrementalCheckpointer;
import dev.lazarus.store.level.CheckpointDirectory;

import io.jhdf.HdfFile;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads exports with the HDF5 library's own h5dump (Debian's hdf5-tools, installed by scripts/setup), so that a file
 * jhdf reads back but the reference implementation rejects cannot pass.
 */
class Hdf5DumpTest {
    @TempDir
    Path dir;

    @Test
    void h5dumpReadsTypesShapesAndValues() throws IOException, InterruptedException {
        CheckpointDirectory l1 = new CheckpointDirectory(dir.resolve("l1"), CheckpointedJob.JOB);
        new CheckpointedJob(l1);
        Path out = dir.resolve("v2.h5");
        new Hdf5Exporter(l1).export(2, out);

        String header = h5dump("-H", out.toString());
        assertEquals(2, count(header, "      DATASET \"x\" {\n         DATATYPE  H5T_IEEE_F64LE\n"
                + "         DATASPACE  SIMPLE { ( 4, 3 ) / ( 4, 3 ) }\n      }\n"), header);
        assertEquals(2, count(header, "      DATASET \"grid\" {\n         DATATYPE  H5T_STD_I32LE\n"
                + "         DATASPACE  SIMPLE { ( 2, 3, 4 ) / ( 2, 3, 4 ) }\n      }\n"), header);
        assertEquals(2, count(header, "      DATASET \"bytes\" {\n         DATATYPE  H5T_STD_I8LE\n"
                + "         DATASPACE  SIMPLE { ( 300 ) / ( 300 ) }\n      }\n"), header);
        assertEquals(2, count(header, "      DATASET \"longs\" {\n         DATATYPE  H5T_STD_I64LE\n"), header);
        assertEquals(2, count(header, "      DATASET \"floats\" {\n         DATATYPE  H5T_IEEE_F32LE\n"), header);
        assertEquals(2, count(header, "      DATASET \"empty\" {\n         DATATYPE  H5T_IEEE_F64LE\n"
                + "         DATASPACE  SIMPLE { ( 0 ) / ( 0 ) }\n"), header);
        assertEquals(2, count(header, "DATASPACE  SIMPLE { ( 3, 0, 2 ) / ( 3, 0, 2 ) }"), header);
        assertEquals(1, count(header, "   GROUP \"rank_0\" {\n"), header);
        assertEquals(1, count(header, "   GROUP \"rank_1\" {\n"), header);
        assertEquals(1, count(header, "   ATTRIBUTE \"world_size\" {\n      DATATYPE  H5T_STD_I32LE\n"), header);

        assertEquals("HDF5 \"" + out + "\" {\n"
                + "DATASET \"/rank_0/x\" {\n"
                + "   DATATYPE  H5T_IEEE_F64LE\n"
                + "   DATASPACE  SIMPLE { ( 4, 3 ) / ( 4, 3 ) }\n"
                + "   DATA {\n"
                + "   (0,0): 0.5, 1.5, 2.5,\n"
                + "   (1,0): 10.5, 11.5, 12.5,\n"
                + "   (2,0): 20.5, -7.25, 22.5,\n"
                + "   (3,0): 30.5, 31.5, 32.5\n"
                + "   }\n"
                + "}\n"
                + "}\n", h5dump("-d", "/rank_0/x", out.toString()));
        String grid = h5dump("-d", "/rank_1/grid", out.toString());
        assertTrue(grid.contains("   (1,2,0): 1120, 1121, 1122, -2\n"), grid);
        String longs = h5dump("-d", "/rank_0/longs", out.toString());
        assertTrue(longs.contains("   (0): -9223372036854775808, 8589934592, 17179869184,"), longs);
        String bytes = h5dump("-d", "/rank_1/bytes", out.toString());
        assertTrue(bytes.contains("   (0): 1, 8, 15, 22, 29, 36, 43, 50, 57, 64, 71, 78, 85, 92, 99, 106, 113,\n"),
                bytes);
        assertTrue(bytes.contains(", -128\n   }\n"), bytes);
        String empty = h5dump("-d", "/rank_1/empty.3d", out.toString());
        assertTrue(empty.contains("   DATASPACE  SIMPLE { ( 3, 0, 2 ) / ( 3, 0, 2 ) }\n   DATA {\n   }\n"), empty);
        String attributes = h5dump("-a", "/job", "-a", "/version", "-a", "/rank_1/chain", out.toString());
        assertTrue(attributes.contains("   (0): \"job1\"\n"), attributes);
        assertTrue(attributes.contains("ATTRIBUTE \"version\" {\n   DATATYPE  H5T_STD_I64LE\n   DATASPACE  SCALAR\n"
                + "   DATA {\n   (0): 2\n"), attributes);
        assertTrue(attributes.contains("   (0): 1, 2\n"), attributes);
        h5dump(out.toString()); // every value of the file, read by the reference library
    }

    @Test
    void ranksWithoutVariablesKeepTheirGroup() throws IOException, InterruptedException {
        // jhdf appends a trailer after the last dataset; a group with no datasets written after it must survive.
        CheckpointDirectory l1 = new CheckpointDirectory(dir.resolve("l1"), "sparse");
        for (int rank = 0; rank < 4; rank++) {
            try (var checkpointer = new IncrementalCheckpointer(l1, rank, 4, 256, 10, new AllPagesScanner("all"))) {
                if (rank == 1) {
                    checkpointer.protect(ProtectedRegion.of("v", ElementType.DOUBLE,
                            MemorySegment.ofArray(new double[] {1, 2, 3})));
                }
                checkpointer.checkpoint(1);
            }
        }
        Path out = dir.resolve("sparse.h5");
        assertEquals(1, new Hdf5Exporter(l1).export(1, out).datasets());
        String all = h5dump(out.toString());
        for (int rank = 0; rank < 4; rank++) {
            assertEquals(1, count(all, "   GROUP \"rank_" + rank + "\" {\n"), all);
        }
        assertTrue(all.contains("DATASET \"v\" {\n         DATATYPE  H5T_IEEE_F64LE\n"
                + "         DATASPACE  SIMPLE { ( 3 ) / ( 3 ) }\n         DATA {\n         (0): 1, 2, 3\n"), all);
        try (HdfFile file = new HdfFile(out)) {
            assertEquals(new TreeSet<>(List.of("rank_0", "rank_1", "rank_2", "rank_3")),
                    new TreeSet<>(file.getChildren().keySet()));
        }
        Path none = dir.resolve("none.h5");
        new Hdf5Exporter(l1).ranks(List.of(0, 2, 3)).export(1, none);
        assertEquals(3, count(h5dump(none.toString()), "   GROUP \"rank_"));
    }

    private static int count(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            count++;
        }
        return count;
    }

    /** @return h5dump's standard output; fails the test on a non-zero exit or when h5dump is missing */
    private String h5dump(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("h5dump"));
        command.addAll(List.of(arguments));
        Path errors = dir.resolve("h5dump.err");
        Process process;
        try {
            process = new ProcessBuilder(command).redirectError(errors.toFile()).start();
        } catch (IOException e) {
            return fail("h5dump not found (" + e.getMessage() + "): scripts/setup installs Debian's hdf5-tools, "
                    + "run it first");
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail(command + " did not finish in 60 s");
        }
        assertEquals(0, process.exitValue(), command + " failed: " + Files.readString(errors) + output);
        return output;
    }
}
