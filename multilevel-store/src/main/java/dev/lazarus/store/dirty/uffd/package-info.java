/**
 * Precise page tracking on Linux 6.7+: userfaultfd asynchronous write-protection with the PAGEMAP_SCAN ioctl,
 * called through the FFM API. It owns the kernel ABI (struct layouts and ioctl numbers) and the libc downcalls.
 */
package dev.lazarus.store.dirty.uffd;
