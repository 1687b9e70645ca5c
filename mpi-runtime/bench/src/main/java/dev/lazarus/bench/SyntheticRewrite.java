package dev.lazarus.bench;

import dev.lazarus.store.ElementType;
import dev.lazarus.store.ProtectedRegion;
import dev.lazarus.store.dirty.WrittenPageScanner;
import dev.lazarus.store.dirty.uffd.WrittenPageScanners;
import dev.lazarus.store.incremental.CheckpointStats;
import dev.lazarus.store.incremental.IncrementalCheckpointer;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The incremental-size workload of the checkpoint store's targets: a 64 MiB mapped region whose every page is
 * rewritten between checkpoints while only 5% of its 512-byte blocks change value (CTH-like thresholding: most
 * stores write what was there). Page-level incremental checkpointing saves everything; block hashing saves 5%.
 * Prints the same JSON line as {@link CheckpointRun}'s sizes mode.
 *
 * <pre>  SyntheticRewrite WORKDIR</pre>
 */
public final class SyntheticRewrite {
    private static final long BYTES = 64L << 20;
    private static final int BLOCK = 512;
    private static final int VERSIONS = 10;

    private SyntheticRewrite() {
    }

    public static void main(String[] args) throws IOException {
        Path work = Files.createDirectories(Path.of(args[0]));
        StringBuilder versions = new StringBuilder();
        String tracking;
        try (Arena arena = Arena.ofShared(); WrittenPageScanner scanner = WrittenPageScanners.open()) {
            MemorySegment region;
            try (FileChannel channel = FileChannel.open(work.resolve("region"), StandardOpenOption.CREATE,
                    StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                region = channel.map(FileChannel.MapMode.READ_WRITE, 0, BYTES, arena);
            }
            double[] shadow = new double[(int) (BYTES / 64)];
            for (long i = 0; i < BYTES / 8; i++) {
                region.setAtIndex(ValueLayout.JAVA_DOUBLE, i, i * 0.25);
            }
            for (int line = 0; line < shadow.length; line++) {
                shadow[line] = line * 8 * 0.25;
            }
            CheckpointDirectory l1 = new CheckpointDirectory(work.resolve("l1"), "synthetic");
            try (IncrementalCheckpointer ckpt = new IncrementalCheckpointer(l1, 0, 1, BLOCK, 1_000_000, scanner)) {
                ckpt.protect(ProtectedRegion.of("field", ElementType.DOUBLE, region));
                for (int v = 1; v <= VERSIONS; v++) {
                    rewrite(region, shadow, v);
                    CheckpointStats s = ckpt.checkpoint(v);
                    versions.append(versions.isEmpty() ? "" : ",").append(CheckpointRun.json(s));
                    if (v > 2) {
                        l1.deleteVersion(v - 1); // keep the base, drop old increments: RAM disk room
                    }
                }
                tracking = ckpt.pageTracking();
            }
        } finally {
            BenchHeap.delete(work);
        }
        System.out.println("{\"app\":\"synthetic.rewrite5\",\"mode\":\"sizes\",\"every\":1,\"verified\":true,"
                + "\"pageTracking\":\"" + tracking + "\",\"versions\":[" + versions + "]}");
    }

    /**
     * Stores to the first double of every cache line (every page written); the value changes in every 20th block. The
     * values come from a shadow array, not from a load of the same address, so the JIT cannot drop the stores that
     * write what is already there.
     */
    private static void rewrite(MemorySegment region, double[] shadow, int version) {
        for (long block = 0; block < BYTES / BLOCK; block++) {
            boolean changes = block % 20 == version % 20;
            for (long at = block * BLOCK; at < (block + 1) * BLOCK; at += 64) {
                int line = (int) (at / 64);
                if (changes && at == block * BLOCK) {
                    shadow[line] += 1;
                }
                region.set(ValueLayout.JAVA_DOUBLE, at, shadow[line]);
            }
        }
    }
}
