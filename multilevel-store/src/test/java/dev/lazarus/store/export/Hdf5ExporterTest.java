package dev.lazarus.store.export;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.store.CorruptCheckpointException;
import dev.lazarus.store.Variable;
import dev.lazarus.store.level.CheckpointDirectory;

import io.jhdf.HdfFile;
import io.jhdf.api.Dataset;
import io.jhdf.api.Group;
import io.jhdf.object.datatype.DataType;
import io.jhdf.object.datatype.FixedPoint;
import io.jhdf.object.datatype.FloatingPoint;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Hdf5ExporterTest {
    @TempDir
    Path dir;
    private CheckpointDirectory l1;
    private CheckpointedJob job;
    private Path out;

    @BeforeEach
    void setUp() throws IOException {
        l1 = new CheckpointDirectory(dir.resolve("l1"), CheckpointedJob.JOB);
        job = new CheckpointedJob(l1);
        Files.createDirectories(dir.resolve("out"));
        out = dir.resolve("out/job1-v2.h5");
    }

    @Test
    void exportHoldsTheComposedStateOfEveryRankWithTypesAndShapes() throws IOException {
        Hdf5Export export = new Hdf5Exporter(l1).export(2, out);
        assertEquals(new Hdf5Export(out, "job1", 2, 2, List.of(0, 1), 16, 2 * (300 + 600 + 800 + 480 + 96 + 96),
                Files.size(out)), export);
        try (HdfFile file = new HdfFile(out)) {
            assertEquals("job1", file.getAttribute("job").getData());
            assertEquals(2L, file.getAttribute("version").getData());
            assertEquals(2, file.getAttribute("world_size").getData());
            assertEquals(new TreeSet<>(List.of("rank_0", "rank_1")), new TreeSet<>(file.getChildren().keySet()));
            for (int rank = 0; rank < 2; rank++) {
                Group group = (Group) file.getChild("rank_" + rank);
                assertEquals(rank, group.getAttribute("rank").getData());
                assertEquals(1L, group.getAttribute("parent_version").getData());
                assertArrayEquals(new long[] {1, 2}, (long[]) group.getAttribute("chain").getData());
                assertEquals(new TreeSet<>(List.of("bytes", "ints", "longs", "floats", "x", "grid", "empty",
                        "empty.3d")), new TreeSet<>(group.getChildren().keySet()));
                List<Variable> variables = job.variables.get(rank);
                for (int v = 0; v < variables.size(); v++) {
                    Variable variable = variables.get(v);
                    Dataset dataset = (Dataset) group.getChild(variable.name());
                    assertArrayEquals(variable.shape(), dataset.getDimensionsAsLong(), variable.name());
                    assertType(variable, dataset.getDataType());
                    if (variable.elements() > 0) {
                        assertArrayEquals(new Object[] {job.atVersion2.get(rank).get(v)},
                                new Object[] {dataset.getDataFlat()}, "rank " + rank + " " + variable.name());
                    }
                }
            }
            double[][] x = (double[][]) file.getDatasetByPath("/rank_0/x").getData();
            assertArrayEquals(new double[] {20.5, -7.25, 22.5}, x[2]);
            int[][][] grid = (int[][][]) file.getDatasetByPath("/rank_1/grid").getData();
            assertEquals(1122, grid[1][2][2]);
            assertEquals(-2, grid[1][2][3]);
        }
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(out)));
        assertEquals(List.of(out), list(out.getParent()), "no temporary file is left");
    }

    private static void assertType(Variable variable, DataType type) {
        String name = variable.name();
        switch (variable.type()) {
            case BYTE, INT, LONG -> {
                FixedPoint fixed = assertInstanceOf(FixedPoint.class, type, name);
                assertTrue(fixed.isSigned(), name);
                assertEquals(variable.type().size(), fixed.getSize(), name);
            }
            case FLOAT, DOUBLE -> assertEquals(variable.type().size(),
                    assertInstanceOf(FloatingPoint.class, type, name).getSize(), name);
        }
    }

    @Test
    void aSubsetOfRanksIsExported() throws IOException {
        Hdf5Export export = new Hdf5Exporter(l1).ranks(List.of(1)).export(2, out);
        assertEquals(List.of(1), export.ranks());
        try (HdfFile file = new HdfFile(out)) {
            assertEquals(2, file.getAttribute("world_size").getData());
            assertEquals(List.of("rank_1"), List.copyOf(file.getChildren().keySet()));
            assertArrayEquals((double[]) job.atVersion2.get(1).get(4),
                    (double[]) file.getDatasetByPath("/rank_1/x").getDataFlat());
        }
        assertEquals("export job=job1 version=2 rank=5: outside world size=2", assertThrows(
                IllegalArgumentException.class,
                () -> new Hdf5Exporter(l1).overwrite(true).ranks(List.of(0, 5)).export(2, out)).getMessage());
        assertEquals("ranks=[1, 1] must be distinct ranks from 0", assertThrows(IllegalArgumentException.class,
                () -> new Hdf5Exporter(l1).ranks(List.of(1, 1))).getMessage());
    }

    @Test
    void aDamagedChunkNamesTheRankAndLeavesNoFile() throws IOException {
        Path base = l1.dataFile(1, 1);
        byte[] bytes = Files.readAllBytes(base);
        bytes[5] ^= 1;
        Files.write(base, bytes);
        CorruptCheckpointException damaged = assertThrows(CorruptCheckpointException.class,
                () -> new Hdf5Exporter(l1).export(2, out));
        assertEquals("export job=job1 version=2 rank=1: " + base
                + ": chunk 0 (variable bytes offset=0 length=300) checksum mismatch", damaged.getMessage());
        assertEquals(List.of(), list(out.getParent()));
        new Hdf5Exporter(l1).ranks(List.of(0)).export(2, out);
        assertTrue(Files.exists(out), "the intact rank still exports");
    }

    @Test
    void aMissingManifestNamesTheRankBeforeAnyFileIsCreated() throws IOException {
        Files.delete(l1.manifestFile(2, 1));
        CorruptCheckpointException missing = assertThrows(CorruptCheckpointException.class,
                () -> new Hdf5Exporter(l1).export(2, out));
        assertEquals("export job=job1 version=2 rank=1: " + l1.manifestFile(2, 1) + ": missing",
                missing.getMessage());
        assertEquals(List.of(), list(out.getParent()));
        assertEquals("export job=job1 version=7: no rank manifests in " + l1.versionDirectory(7), assertThrows(
                CorruptCheckpointException.class, () -> new Hdf5Exporter(l1).export(7, out)).getMessage());
    }

    @Test
    void anExistingFileIsReplacedOnlyWhenAsked() throws IOException {
        Files.writeString(out, "an older export");
        FileAlreadyExistsException exists = assertThrows(FileAlreadyExistsException.class,
                () -> new Hdf5Exporter(l1).export(2, out));
        assertEquals("export job=job1 version=2: output=" + out + " exists; set overwrite to replace it",
                exists.getMessage());
        assertEquals("an older export", Files.readString(out));
        new Hdf5Exporter(l1).overwrite(true).export(1, out);
        try (HdfFile file = new HdfFile(out)) {
            assertEquals(1L, file.getAttribute("version").getData());
            assertEquals(-1L, ((Group) file.getChild("rank_0")).getAttribute("parent_version").getData());
        }
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(out)));
        assertEquals(List.of(out), list(out.getParent()));
        Path nowhere = dir.resolve("missing/x.h5");
        assertEquals("export job=job1 version=2: output directory=" + nowhere.getParent() + " missing",
                assertThrows(NoSuchFileException.class, () -> new Hdf5Exporter(l1).export(2, nowhere)).getMessage());
    }

    @Test
    void aRankNeedingMoreMemoryThanAllowedIsRefused() throws IOException {
        IOException tooBig = assertThrows(IOException.class,
                () -> new Hdf5Exporter(l1).maxRankBytes(2371).export(2, out));
        assertEquals("export job=job1 version=2 rank=0: composing it needs bytes=2372 of memory, more than "
                + "maxRankBytes=2371", tooBig.getMessage());
        assertEquals(List.of(), list(out.getParent()));
        new Hdf5Exporter(l1).maxRankBytes(2372).export(2, out);
        assertEquals("maxRankBytes=0 must be at least 1", assertThrows(IllegalArgumentException.class,
                () -> new Hdf5Exporter(l1).maxRankBytes(0)).getMessage());
    }

    private static List<Path> list(Path directory) throws IOException {
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.sorted().toList();
        }
    }
}
