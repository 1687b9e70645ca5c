package dev.lazarus.store.dirty.uffd;

import static dev.lazarus.store.dirty.ShmMappings.PAGE;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.store.dirty.PageSize;
import dev.lazarus.store.dirty.RecordingSink;
import dev.lazarus.store.dirty.RecordingSink.Run;
import dev.lazarus.store.dirty.ShmMappings;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UffdPageScannerTest {
    private static final int MADV_DONTNEED = 4;
    private static final MethodHandle MADVISE = madvise();

    private final ShmMappings shm = new ShmMappings();
    private final UffdPageScanner scanner = new UffdPageScanner();
    private final RecordingSink sink = new RecordingSink();

    @AfterEach
    void tearDown() throws IOException {
        scanner.close();
        shm.close();
    }

    @SuppressWarnings("restricted") // native access is granted with --enable-native-access=ALL-UNNAMED
    private static MethodHandle madvise() {
        Linker linker = Linker.nativeLinker();
        return linker.downcallHandle(linker.defaultLookup().find("madvise").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                        ValueLayout.JAVA_INT));
    }

    private static void touch(MemorySegment segment, long page) {
        segment.set(JAVA_BYTE, page * PAGE, (byte) (segment.get(JAVA_BYTE, page * PAGE) + 1));
    }

    @Test
    void pageSizeIsTheOneTheExpectedOffsetsAssume() {
        assertEquals(PAGE, PageSize.system());
        assertTrue(scanner.precise());
        assertTrue(scanner.description().startsWith("userfaultfd async write-protect + PAGEMAP_SCAN (features=0x"),
                scanner.description());
    }

    @Test
    void reportsExactlyTheWrittenPagesAndReArms() {
        MemorySegment segment = shm.map(64);
        touch(segment, 10); // populated before tracking starts: not a write since registration
        scanner.register(segment);
        // Never-touched pages are protected too (WP_UNPOPULATED), so the first scan reports nothing.
        assertEquals(0, scanner.scanAndReset(segment, sink));
        assertEquals(List.of(), sink.take());

        touch(segment, 3);
        touch(segment, 7);
        touch(segment, 8);
        assertEquals(3, scanner.scanAndReset(segment, sink));
        assertEquals(List.of(new Run(3 * PAGE, PAGE), new Run(7 * PAGE, 2 * PAGE)), sink.take());

        assertEquals(0, scanner.scanAndReset(segment, sink));
        assertEquals(List.of(), sink.take());

        touch(segment, 8);
        assertEquals(1, scanner.scanAndReset(segment, sink));
        assertEquals(List.of(new Run(8 * PAGE, PAGE)), sink.take());
    }

    @Test
    void writingTheSameValueCountsAndReadingDoesNot() {
        MemorySegment segment = shm.map(64);
        scanner.register(segment);
        segment.set(JAVA_BYTE, 5 * PAGE + 17, segment.get(JAVA_BYTE, 5 * PAGE + 17)); // same value: still a write
        segment.get(JAVA_BYTE, 6 * PAGE); // a read is not a write
        assertEquals(1, scanner.scanAndReset(segment, sink));
        assertEquals(List.of(new Run(5 * PAGE, PAGE)), sink.take());
    }

    @Test
    void writesTheKernelMakesOnTheProcesssBehalfCount() throws IOException {
        // read(2) into the segment writes through the process's page tables from kernel mode (as TCP receives do).
        MemorySegment segment = shm.map(16);
        scanner.register(segment);
        Path source = Files.createTempFile(Path.of("/dev/shm"), "lazarus-dirty-read", ".tmp");
        try {
            Files.write(source, new byte[] {1, 2, 3});
            try (FileChannel channel = FileChannel.open(source)) {
                assertEquals(3, channel.read(segment.asSlice(9 * PAGE + 100, 3).asByteBuffer()));
            }
        } finally {
            Files.delete(source);
        }
        assertEquals(3, segment.get(JAVA_BYTE, 9 * PAGE + 102));
        assertEquals(1, scanner.scanAndReset(segment, sink));
        assertEquals(List.of(new Run(9 * PAGE, PAGE)), sink.take());
    }

    @Test
    void twoSegmentsAreTrackedIndependently() {
        MemorySegment first = shm.map(16);
        MemorySegment second = shm.map(16);
        scanner.register(first);
        scanner.register(second);
        touch(first, 0);
        touch(second, 15);
        touch(second, 14);

        assertEquals(1, scanner.scanAndReset(first, sink));
        assertEquals(List.of(new Run(0, PAGE)), sink.take());
        touch(first, 1); // after first's scan, before second's: second must not see it
        assertEquals(2, scanner.scanAndReset(second, sink));
        assertEquals(List.of(new Run(14 * PAGE, 2 * PAGE)), sink.take());
        assertEquals(1, scanner.scanAndReset(first, sink));
        assertEquals(List.of(new Run(PAGE, PAGE)), sink.take());
    }

    @Test
    void seesWritesFromAnotherThread() throws InterruptedException {
        MemorySegment segment = shm.map(64);
        scanner.register(segment);
        Thread writer = new Thread(() -> touch(segment, 42));
        writer.start();
        writer.join();
        assertEquals(1, scanner.scanAndReset(segment, sink));
        assertEquals(List.of(new Run(42 * PAGE, PAGE)), sink.take());
    }

    @Test
    void continuesFromWalkEndWhenTheRegionVectorFills() {
        MemorySegment segment = shm.map(4096);
        scanner.register(segment);
        List<Run> expected = new ArrayList<>();
        for (long page = 0; page < 4096; page += 2) {
            touch(segment, page);
            expected.add(new Run(page * PAGE, PAGE));
        }
        long callsBefore = scanner.scanCalls();
        assertEquals(2048, scanner.scanAndReset(segment, sink));
        assertEquals(expected, sink.take());
        // 2048 separate runs fill the 512-region vector four times: the continuation path ran.
        assertEquals(4, scanner.scanCalls() - callsBefore);
        assertEquals(0, scanner.scanAndReset(segment, sink));
    }

    @Test
    void aOneRegionVectorStillReportsEveryRun() {
        try (UffdPageScanner tiny = new UffdPageScanner(1)) {
            MemorySegment segment = shm.map(64);
            tiny.register(segment);
            touch(segment, 3);
            touch(segment, 7);
            touch(segment, 8);
            touch(segment, 63);
            assertEquals(4, tiny.scanAndReset(segment, sink));
            assertEquals(List.of(new Run(3 * PAGE, PAGE), new Run(7 * PAGE, 2 * PAGE), new Run(63 * PAGE, PAGE)),
                    sink.take());
            assertEquals(3, tiny.scanCalls());
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"-Xint,1000", "-Xbatch,50000"})
    void scansAllocateNothingInterpretedOrCompiled(String jitMode, String warmUpRounds) throws Exception {
        // Interpreted, and C2-compiled after 50,000 rounds: -Xbatch compiles synchronously, so the count decides
        // and not how much CPU the compiler thread got (a background compile could still be queued after 50,000).
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process probe = new ProcessBuilder(java.toString(), jitMode, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), ScanAllocation.class.getName(), warmUpRounds)
                .redirectErrorStream(true).start();
        String output = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, probe.waitFor(), output);
        assertEquals("0", output.strip(), "bytes allocated by " + ScanAllocation.MEASURED_ROUNDS + " scans");
    }

    @Test
    void aWrittenPageWhosePageTableEntryWasDroppedIsStillReported() throws Throwable {
        // Shmem swap-out and MADV_DONTNEED leave an empty entry where a written page was; the data stays in the
        // file. PAGEMAP_SCAN counts an empty entry in a tracked range as written, so no write is lost.
        MemorySegment segment = shm.map(16);
        scanner.register(segment);
        touch(segment, 3);
        touch(segment, 5);
        assertEquals(0, (int) MADVISE.invokeExact(segment.address() + 3 * PAGE, PAGE, MADV_DONTNEED));
        assertEquals(0, (int) MADVISE.invokeExact(segment.address() + 8 * PAGE, PAGE, MADV_DONTNEED)); // unwritten
        assertEquals(2, scanner.scanAndReset(segment, sink));
        assertEquals(List.of(new Run(3 * PAGE, PAGE), new Run(5 * PAGE, PAGE)), sink.take());
        assertEquals(1, segment.get(JAVA_BYTE, 3 * PAGE));
        assertEquals(0, scanner.scanAndReset(segment, sink));
    }

    @Test
    void tracksPrivateAnonymousMemoryToo() {
        MemorySegment anonymous = shm.arena().allocate(64 * PAGE, PAGE);
        scanner.register(anonymous);
        assertEquals(0, scanner.scanAndReset(anonymous, sink));
        touch(anonymous, 5);
        touch(anonymous, 6);
        assertEquals(2, scanner.scanAndReset(anonymous, sink));
        assertEquals(List.of(new Run(5 * PAGE, 2 * PAGE)), sink.take());
    }

    @Test
    void rejectsHeapUnalignedAndOverlappingSegments() {
        MemorySegment segment = shm.map(8);
        String at = "address=0x" + Long.toHexString(segment.address());

        var heap = assertThrows(IllegalArgumentException.class,
                () -> scanner.register(MemorySegment.ofArray(new byte[8192])));
        assertEquals("segment is not native (heap memory cannot be tracked): length=8192", heap.getMessage());

        var unaligned = assertThrows(IllegalArgumentException.class,
                () -> scanner.register(segment.asSlice(100, PAGE)));
        assertEquals("segment is empty or not page aligned: address=0x" + Long.toHexString(segment.address() + 100)
                + " length=4096 pageSize=4096", unaligned.getMessage());
        var ragged = assertThrows(IllegalArgumentException.class,
                () -> scanner.register(segment.asSlice(0, PAGE + 1)));
        assertEquals("segment is empty or not page aligned: " + at + " length=4097 pageSize=4096",
                ragged.getMessage());

        scanner.register(segment);
        var overlap = assertThrows(IllegalArgumentException.class,
                () -> scanner.register(segment.asSlice(2 * PAGE, PAGE)));
        assertEquals("segment overlaps a tracked one: address=0x" + Long.toHexString(segment.address() + 2 * PAGE)
                + " length=4096 trackedAddress=0x" + Long.toHexString(segment.address()) + " trackedLength=32768",
                overlap.getMessage());
    }

    @Test
    void scanOfAnUntrackedSegmentIsRejected() {
        MemorySegment segment = shm.map(8);
        var unknown = assertThrows(IllegalArgumentException.class, () -> scanner.scanAndReset(segment, sink));
        assertEquals("segment is not tracked: address=0x" + Long.toHexString(segment.address()) + " length=32768",
                unknown.getMessage());
        scanner.register(segment);
        // A slice is a different segment: scans name exactly what was registered.
        assertThrows(IllegalArgumentException.class, () -> scanner.scanAndReset(segment.asSlice(0, PAGE), sink));
    }

    @Test
    void aSegmentTrackedByAnotherUserfaultfdIsRejectedWithErrno() {
        MemorySegment segment = shm.map(8);
        scanner.register(segment);
        try (UffdPageScanner other = new UffdPageScanner()) {
            var busy = assertThrows(IllegalArgumentException.class, () -> other.register(segment));
            assertEquals("op=UFFDIO_REGISTER address=0x" + Long.toHexString(segment.address())
                    + " length=32768 errno=16 (EBUSY)", busy.getMessage());
        }
    }

    @Test
    void unregisterStopsTrackingAndAReRegistrationStartsClean() {
        MemorySegment segment = shm.map(8);
        scanner.register(segment);
        touch(segment, 1);
        scanner.unregister(segment);
        scanner.unregister(segment); // unknown now: ignored
        assertThrows(IllegalArgumentException.class, () -> scanner.scanAndReset(segment, sink));
        touch(segment, 2);
        scanner.register(segment);
        assertEquals(0, scanner.scanAndReset(segment, sink));
        touch(segment, 4);
        assertEquals(1, scanner.scanAndReset(segment, sink));
        assertEquals(List.of(new Run(4 * PAGE, PAGE)), sink.take());
    }

    @Test
    @SuppressWarnings("restricted") // a view of memory unmapped on purpose; it is never accessed
    void unregisterAfterUnmappingIsQuiet() {
        MemorySegment view;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = shm.map(4, arena);
            scanner.register(segment);
            view = MemorySegment.ofAddress(segment.address()).reinterpret(segment.byteSize());
        }
        scanner.unregister(view);
        assertThrows(IllegalArgumentException.class, () -> scanner.scanAndReset(view, sink));
    }

    @Test
    void afterCloseWritesStillWorkAndTheScannerRefusesWork() {
        MemorySegment shared = shm.map(8);
        MemorySegment anonymous = shm.arena().allocate(8 * PAGE, PAGE);
        scanner.register(shared);
        scanner.register(anonymous);
        scanner.close();
        scanner.close(); // idempotent
        for (long page = 0; page < 8; page++) {
            touch(shared, page);
            touch(anonymous, page);
        }
        assertEquals(1, shared.get(JAVA_BYTE, 7 * PAGE));
        assertEquals(1, anonymous.get(JAVA_BYTE, 7 * PAGE));
        var closed = assertThrows(IllegalStateException.class, () -> scanner.scanAndReset(shared, sink));
        assertEquals("scanner is closed", closed.getMessage());
    }
}
