package dev.lazarus.bench;

import dev.lazarus.store.ElementType;
import dev.lazarus.store.ProtectedRegion;
import dev.lazarus.store.dirty.AllPagesScanner;
import dev.lazarus.store.incremental.IncrementalCheckpointer;
import dev.lazarus.store.level.CheckpointDirectory;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

/**
 * L1 write bandwidth: a full rank checkpoint of a region to the RAM disk ({@link #checkpoint}: chunks with CRC32C,
 * manifest published atomically, fsyncs) against a plain sequential write of the same bytes to a file on /dev/shm
 * ({@link #plainWrite}: open, write, fsync, close). The target is checkpoint at >= 80% of the plain write's bandwidth,
 * i.e. plainWrite / checkpoint >= 0.8. {@code fullEvery} 1 writes full checkpoints only (no hashing); 10 also hashes
 * every block for the increments that follow.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class StoreL1Write {
    @Param({"67108864"})
    public long bytes;

    @Param({"1", "10"})
    public int fullEvery;

    private Path dir;
    private Arena arena;
    private MemorySegment region;
    private IncrementalCheckpointer checkpointer;
    private CheckpointDirectory l1;
    private long version;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory(BenchHeap.baseDirectory(), "lazarus-l1-bench");
        arena = Arena.ofShared();
        region = arena.allocate(bytes, 4096);
        for (long i = 0; i < bytes / 8; i++) {
            region.setAtIndex(ValueLayout.JAVA_DOUBLE, i, i * 1.5);
        }
        l1 = new CheckpointDirectory(dir.resolve("l1"), "bench");
        checkpointer = new IncrementalCheckpointer(l1, 0, 1, 512, fullEvery, new AllPagesScanner("bench"));
        checkpointer.protect(ProtectedRegion.of("x", ElementType.DOUBLE, region));
    }

    /** Keeps one version on the RAM disk; a full checkpoint's version is written anew each time. */
    @Setup(Level.Invocation)
    public void makeRoom() throws IOException {
        if (version > 0) {
            l1.deleteVersion(version);
        }
        // Forgetting the hashes makes every checkpoint full. With fullEvery 10 it then hashes every block, as a full
        // checkpoint that starts a chain does; with fullEvery 1 it hashes nothing.
        checkpointer.restored();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        checkpointer.close();
        arena.close();
        BenchHeap.delete(dir);
    }

    @Benchmark
    public long checkpoint() throws IOException {
        return checkpointer.checkpoint(++version).dataBytes();
    }

    @Benchmark
    public long plainWrite() throws IOException {
        Path file = dir.resolve("plain");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buffer = region.asByteBuffer();
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(false);
        }
        return bytes;
    }
}
