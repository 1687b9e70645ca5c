package dev.lazarus.store.dirty;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.stream.Stream;

/** Test fixture: shared mappings of files in a temporary directory under /dev/shm, all removed by close(). */
public final class ShmMappings implements AutoCloseable {
    /** The page size the tests' expected offsets are written in (x86_64). */
    public static final long PAGE = 4096;

    private final Arena arena = Arena.ofShared();
    private final Path directory;
    private int files;

    public ShmMappings() {
        try {
            directory = Files.createTempDirectory(Path.of("/dev/shm"), "lazarus-dirty-test");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return a READ_WRITE shared mapping of a new file of {@code pages} pages, unmapped by close() */
    public MemorySegment map(long pages) {
        return map(pages, arena);
    }

    /** @return a READ_WRITE shared mapping of a new file of {@code pages} pages, unmapped when {@code owner} closes */
    public MemorySegment map(long pages, Arena owner) {
        Path file = directory.resolve("segment-" + files++);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, pages * PAGE, owner);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the arena the mappings live in, e.g. to allocate anonymous memory with the same lifetime */
    public Arena arena() {
        return arena;
    }

    @Override
    public void close() throws IOException {
        arena.close();
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
