package dev.lazarus.store.dirty.uffd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The ioctl numbers built by {@link Ioctl} against the values the kernel headers' macros expand to. */
class LayoutTest {
    @Test
    void userfaultfdRequestNumbers() {
        assertEquals(0xC018AA3FL, UffdLayout.UFFDIO_API);
        assertEquals(0xC020AA00L, UffdLayout.UFFDIO_REGISTER);
        assertEquals(0x8010AA01L, UffdLayout.UFFDIO_UNREGISTER);
        assertEquals(0xC018AA06L, UffdLayout.UFFDIO_WRITEPROTECT);
    }

    @Test
    void pagemapScanRequestNumber() {
        assertEquals(0xC0606610L, PagemapScanLayout.PAGEMAP_SCAN);
        assertEquals(96, PagemapScanLayout.ARG_RETURN_MASK + 8);
    }
}
