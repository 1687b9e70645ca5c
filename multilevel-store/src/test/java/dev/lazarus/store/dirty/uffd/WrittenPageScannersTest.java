package dev.lazarus.store.dirty.uffd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.store.dirty.AllPagesScanner;
import dev.lazarus.store.dirty.WrittenPageScanner;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WrittenPageScannersTest {
    @AfterEach
    void clearProperty() {
        System.clearProperty(WrittenPageScanners.PAGE_TRACKING_PROPERTY);
    }

    @Test
    void picksUserfaultfdTrackingOnThisKernel() {
        assertEquals("auto", WrittenPageScanners.pageTracking());
        try (WrittenPageScanner scanner = WrittenPageScanners.open()) {
            assertInstanceOf(UffdPageScanner.class, scanner);
            assertTrue(scanner.precise());
            assertTrue(scanner.description().startsWith("userfaultfd async write-protect"), scanner.description());
        }
    }

    @Test
    void offForcesHashingEveryPage() {
        System.setProperty("lazarus.store.pageTracking", "off");
        try (WrittenPageScanner scanner = WrittenPageScanners.open()) {
            assertInstanceOf(AllPagesScanner.class, scanner);
            assertFalse(scanner.precise());
            assertEquals("page tracking off (lazarus.store.pageTracking=off), hashing every page",
                    scanner.description());
        }
    }

    @Test
    void rejectsUnknownSettings() {
        System.setProperty("lazarus.store.pageTracking", "maybe");
        var bad = assertThrows(IllegalArgumentException.class, WrittenPageScanners::open);
        assertEquals("lazarus.store.pageTracking=maybe: expected auto or off", bad.getMessage());
    }

    @Test
    void fallsBackSayingWhyWhenUserfaultfdFails() {
        WrittenPageScanner scanner = WrittenPageScanners.open("auto", () -> {
            throw new IllegalStateException("op=userfaultfd flags=0x80801 errno=1 (EPERM)");
        });
        assertInstanceOf(AllPagesScanner.class, scanner);
        assertEquals("page tracking unavailable (op=userfaultfd flags=0x80801 errno=1 (EPERM)), hashing every page",
                scanner.description());
    }

    @Test
    void fallsBackWhenTheProbeFindsTrackingImprecise() {
        AllPagesScanner imprecise = new AllPagesScanner("pretending to be precise");
        WrittenPageScanner scanner = WrittenPageScanners.open("auto", () -> imprecise);
        assertInstanceOf(AllPagesScanner.class, scanner);
        assertEquals("page tracking unavailable (probe reported pages=2 runs=1 offset=0 length=8192, expected the"
                + " second page only), hashing every page", scanner.description());
    }

    @Test
    void theProbeAcceptsOnlyAScannerThatReportsExactlyTheWrittenPage() {
        try (UffdPageScanner precise = new UffdPageScanner()) {
            assertNull(WrittenPageScanners.probe(precise));
        }
        try (AllPagesScanner everything = new AllPagesScanner("test")) {
            assertEquals("probe reported pages=2 runs=1 offset=0 length=8192, expected the second page only",
                    WrittenPageScanners.probe(everything));
        }
    }
}
