package dev.lazarus.store.dirty.uffd;

import dev.lazarus.store.dirty.AllPagesScanner;
import dev.lazarus.store.dirty.PageSize;
import dev.lazarus.store.dirty.WrittenPageScanner;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Supplier;

/**
 * Picks the best {@link WrittenPageScanner} this machine supports.
 *
 * <p>Setting: system property {@value #PAGE_TRACKING_PROPERTY}, default {@value #PAGE_TRACKING_AUTO}.
 * <ul>
 *   <li>{@code auto}: userfaultfd asynchronous write-protection with PAGEMAP_SCAN ({@link UffdPageScanner}, Linux
 *       6.7+) if a probe on a small shared mapping of a {@code /dev/shm} file finds it working, otherwise an
 *       {@link AllPagesScanner} whose {@link WrittenPageScanner#description()} says why.</li>
 *   <li>{@code off}: always the {@link AllPagesScanner}, e.g. to compare checkpoint costs with and without
 *       tracking.</li>
 * </ul>
 */
public final class WrittenPageScanners {
    /** System property that selects page tracking: {@code auto} or {@code off}. */
    public static final String PAGE_TRACKING_PROPERTY = "lazarus.store.pageTracking";
    /** Default of {@link #PAGE_TRACKING_PROPERTY}: track pages when the kernel can. */
    public static final String PAGE_TRACKING_AUTO = "auto";
    /** Value of {@link #PAGE_TRACKING_PROPERTY} that turns tracking off. */
    public static final String PAGE_TRACKING_OFF = "off";

    private static final Path SHM = Path.of("/dev/shm");

    private WrittenPageScanners() {
    }

    /** @return the value of {@link #PAGE_TRACKING_PROPERTY}, {@code auto} when unset */
    public static String pageTracking() {
        return System.getProperty(PAGE_TRACKING_PROPERTY, PAGE_TRACKING_AUTO);
    }

    /**
     * Opens a scanner as {@link #PAGE_TRACKING_PROPERTY} says.
     *
     * @throws IllegalArgumentException if the property has a value other than {@code auto} or {@code off}
     */
    public static WrittenPageScanner open() {
        return open(pageTracking(), UffdPageScanner::new);
    }

    /** {@link #open()} with the setting and the precise scanner's constructor given, for tests. */
    static WrittenPageScanner open(String setting, Supplier<? extends WrittenPageScanner> precise) {
        if (PAGE_TRACKING_OFF.equals(setting)) {
            return new AllPagesScanner("page tracking off (" + PAGE_TRACKING_PROPERTY + "=off), hashing every page");
        }
        if (!PAGE_TRACKING_AUTO.equals(setting)) {
            throw new IllegalArgumentException(PAGE_TRACKING_PROPERTY + "=" + setting + ": expected auto or off");
        }
        WrittenPageScanner scanner;
        try {
            scanner = precise.get();
        } catch (RuntimeException e) {
            return unavailable(e.getMessage());
        }
        String failure = probe(scanner);
        if (failure != null) {
            scanner.close();
            return unavailable(failure);
        }
        return scanner;
    }

    private static AllPagesScanner unavailable(String reason) {
        return new AllPagesScanner("page tracking unavailable (" + reason + "), hashing every page");
    }

    /**
     * Tracks a two-page shared mapping of a file in /dev/shm (the kind of memory the store's regions are), writes
     * its second page and checks that exactly that page is reported.
     *
     * @return null if the scanner works, else what went wrong
     */
    static String probe(WrittenPageScanner scanner) {
        long page = PageSize.system();
        Path directory = Files.isDirectory(SHM) ? SHM : Path.of(System.getProperty("java.io.tmpdir"));
        Path file = null;
        try (Arena arena = Arena.ofConfined()) {
            file = Files.createTempFile(directory, "lazarus-page-tracking-probe", ".tmp");
            MemorySegment segment;
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                segment = channel.map(FileChannel.MapMode.READ_WRITE, 0, 2 * page, arena);
            }
            scanner.register(segment);
            try {
                segment.set(ValueLayout.JAVA_BYTE, page, (byte) 1);
                long[] run = {-1, -1, 0};
                long pages = scanner.scanAndReset(segment, (offset, length) -> {
                    run[0] = offset;
                    run[1] = length;
                    run[2]++;
                });
                if (pages != 1 || run[2] != 1 || run[0] != page || run[1] != page) {
                    return "probe reported pages=" + pages + " runs=" + run[2] + " offset=" + run[0]
                            + " length=" + run[1] + ", expected the second page only";
                }
            } finally {
                scanner.unregister(segment);
            }
            return null;
        } catch (IOException | RuntimeException e) {
            return "probe failed: " + e.getMessage();
        } finally {
            deleteQuietly(file);
        }
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // A leftover empty probe file in /dev/shm is harmless; the scanner choice does not depend on it.
            }
        }
    }
}
