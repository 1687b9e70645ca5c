package dev.lazarus.store.dirty;

import static dev.lazarus.store.dirty.ShmMappings.PAGE;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.lazarus.store.dirty.RecordingSink.Run;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AllPagesScannerTest {
    private final ShmMappings shm = new ShmMappings();
    private final AllPagesScanner scanner = new AllPagesScanner("why not");
    private final RecordingSink sink = new RecordingSink();

    @AfterEach
    void tearDown() throws IOException {
        scanner.close();
        shm.close();
    }

    @Test
    void reportsEveryPageOfTheSegmentOnEveryScan() {
        MemorySegment segment = shm.map(64);
        MemorySegment other = shm.map(2);
        scanner.register(segment);
        scanner.register(other);
        assertFalse(scanner.precise());
        assertEquals("why not", scanner.description());
        assertEquals(64, scanner.scanAndReset(segment, sink));
        assertEquals(List.of(new Run(0, 64 * PAGE)), sink.take());
        segment.set(JAVA_BYTE, 3 * PAGE, (byte) 1);
        assertEquals(64, scanner.scanAndReset(segment, sink));
        assertEquals(List.of(new Run(0, 64 * PAGE)), sink.take());
        assertEquals(2, scanner.scanAndReset(other, sink));
        assertEquals(List.of(new Run(0, 2 * PAGE)), sink.take());
    }

    @Test
    void validatesLikeAPreciseScanner() {
        MemorySegment segment = shm.map(4);
        var heap = assertThrows(IllegalArgumentException.class,
                () -> scanner.register(MemorySegment.ofArray(new long[512])));
        assertEquals("segment is not native (heap memory cannot be tracked): length=4096", heap.getMessage());
        var empty = assertThrows(IllegalArgumentException.class, () -> scanner.register(segment.asSlice(0, 0)));
        assertEquals("segment is empty or not page aligned: address=0x" + Long.toHexString(segment.address())
                + " length=0 pageSize=4096", empty.getMessage());
        scanner.register(segment);
        var twice = assertThrows(IllegalArgumentException.class, () -> scanner.register(segment));
        assertEquals("segment overlaps a tracked one: address=0x" + Long.toHexString(segment.address())
                + " length=16384 trackedAddress=0x" + Long.toHexString(segment.address()) + " trackedLength=16384",
                twice.getMessage());
    }

    @Test
    void forgetsUnregisteredSegments() {
        MemorySegment segment = shm.map(4);
        scanner.register(segment);
        scanner.unregister(segment);
        var unknown = assertThrows(IllegalArgumentException.class, () -> scanner.scanAndReset(segment, sink));
        assertEquals("segment is not tracked: address=0x" + Long.toHexString(segment.address()) + " length=16384",
                unknown.getMessage());
        scanner.register(segment); // no longer overlaps anything
        assertEquals(4, scanner.scanAndReset(segment, sink));
    }
}
