package dev.lazarus.bench;

import dev.lazarus.easycrash.PersistentHeap;
import dev.lazarus.easycrash.heap.HeapLayout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A throw-away persistent heap for one benchmark trial, in a fresh directory under {@code -Dlazarus.bench.dir}
 * (default {@code /dev/shm}, emulated NVM as Lazarus ranks use it, else {@code java.io.tmpdir}). Public for the
 * benchmarks that live in the kernels' packages (they call package-private loops).
 */
public final class BenchHeap implements AutoCloseable {
    /** System property naming the directory the benchmark heaps are created in. */
    static final String DIR_PROPERTY = "lazarus.bench.dir";

    final PersistentHeap heap;
    private final Path directory;

    private BenchHeap(PersistentHeap heap, Path directory) {
        this.heap = heap;
        this.directory = directory;
    }

    /** Opens a fresh heap with room for objects of the given sizes in bytes. */
    public static BenchHeap open(long... objectBytes) {
        long capacity = HeapLayout.DATA_OFFSET + HeapLayout.PAGE;
        for (long bytes : objectBytes) {
            capacity += HeapLayout.pageAlign(bytes);
        }
        Path directory = null;
        try {
            directory = Files.createTempDirectory(baseDirectory(), "lazarus-jmh-");
            PersistentHeap heap = PersistentHeap.open(
                    new PersistentHeap.Config(directory, "jmh", 0, 1, capacity, "jmh", null));
            return new BenchHeap(heap, directory);
        } catch (IOException e) {
            if (directory != null) {
                delete(directory);
            }
            throw new UncheckedIOException("cannot create a benchmark heap", e);
        }
    }

    /** @return where benchmark files go: {@value #DIR_PROPERTY}, else /dev/shm, else the temporary directory */
    static Path baseDirectory() {
        String configured = System.getProperty(DIR_PROPERTY);
        if (configured != null) {
            return Path.of(configured);
        }
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    }

    /** The heap, to attach the benchmark's objects to. */
    public PersistentHeap heap() {
        return heap;
    }

    /** Unmaps the heap and deletes its directory. */
    @Override
    public void close() {
        try {
            heap.release();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            delete(directory);
        }
    }

    /** Deletes a directory tree, if it exists; the benchmarks' clean-up. */
    static void delete(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + directory, e);
        }
    }
}
