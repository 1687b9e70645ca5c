/**
 * Precise page tracking on Linux 6.7+: userfaultfd asynchronous write-protection with the PAGEMAP_SCAN ioctl,
 * called through the FFM API. It owns the kernel ABI (struct layouts and ioctl numbers) and the libc downcalls, and
 * {@link dev.lazarus.store.dirty.uffd.WrittenPageScanners}, which probes for it and falls back to the
 * {@link dev.lazarus.store.dirty.AllPagesScanner} when the kernel cannot.
 */
package dev.lazarus.store.dirty.uffd;
