package dev.lazarus.easycrash.persist;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Both writers on a real mapped file, on the JDK's write-back (a few lines) and on their own mechanism (longer). */
class CacheLineWritersTest {
    private static final long SIZE = 1 << 20;

    @TempDir
    Path dir;

    /** Test JVMs run with the rank JVMs' flags, the export included; so the writers' single lines go to the JDK. */
    @Test
    void theJdkWriteBackIsThereWithTheRankJvmFlags() {
        assertTrue(JdkWriteBack.AVAILABLE, "tests run with --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED");
        assertTrue(PmemCacheLineWriter.load().mechanism().contains("JDK's write-back"));
    }

    @Test
    void bothWritersPersistShortAndLongRangesOfAMapping() throws IOException {
        for (CacheLineWriter writer : List.of(PmemCacheLineWriter.load(), new SyncMappingCacheLineWriter())) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment heap = map(arena, dir.resolve(writer.getClass().getSimpleName()));
                heap.set(ValueLayout.JAVA_LONG, 64, 42L);
                writer.persist(heap, 64, 64); // one line: the JDK's write-back
                writer.persist(heap, 100, 8); // within a line, unaligned
                writer.persist(heap, 0, JdkWriteBack.MAX_BYTES + 1); // longer: the writer's own mechanism
                writer.persist(heap, 0, 0);
                assertEquals(42L, heap.get(ValueLayout.JAVA_LONG, 64));
            }
        }
    }

    /** libpmem would flush any address and the JDK's write-back any native one: the writers check the range first. */
    @Test
    void rangesOutsideTheSegmentAreRefusedOnBothPaths() throws IOException {
        for (CacheLineWriter writer : List.of(PmemCacheLineWriter.load(), new SyncMappingCacheLineWriter())) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment heap = map(arena, dir.resolve(writer.getClass().getSimpleName()));
                assertThrows(IndexOutOfBoundsException.class, () -> writer.persist(heap, SIZE - 32, 64),
                        writer.mechanism());
                assertThrows(IndexOutOfBoundsException.class, () -> writer.persist(heap, SIZE - 32, 1 << 16),
                        writer.mechanism());
                assertThrows(IndexOutOfBoundsException.class, () -> writer.persist(heap, -64, 64),
                        writer.mechanism());
            }
        }
    }

    /** Without the export nothing touches the internal class: libpmem persists the lines, no IllegalAccessError. */
    @Test
    void withoutTheExportTheWritersUseTheirOwnMechanism() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), WithoutExport.class.getName(),
                dir.resolve("child").toString()).redirectErrorStream(true).start();
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "child JVM did not finish");
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, child.exitValue(), output);
        assertEquals("available=false persisted=42 mechanism=libpmem", output);
        assertFalse(output.contains("IllegalAccessError"));
    }

    /** The child JVM of {@link #withoutTheExportTheWritersUseTheirOwnMechanism}. */
    public static final class WithoutExport {
        public static void main(String[] args) throws IOException {
            PmemCacheLineWriter writer = PmemCacheLineWriter.load();
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment heap = map(arena, Path.of(args[0]));
                heap.set(ValueLayout.JAVA_LONG, 0, 42L);
                writer.persist(heap, 0, 64);
                System.out.println("available=" + JdkWriteBack.AVAILABLE + " persisted="
                        + heap.get(ValueLayout.JAVA_LONG, 0) + " mechanism="
                        + writer.mechanism().substring(0, "libpmem".length()));
                if (writer.mechanism().contains("JDK")) {
                    System.out.println("but the mechanism names the JDK's write-back");
                }
            }
        }
    }

    private static MemorySegment map(Arena arena, Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            channel.truncate(SIZE);
            channel.write(ByteBuffer.wrap(new byte[] {0}), SIZE - 1);
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, SIZE, arena);
        }
    }
}
