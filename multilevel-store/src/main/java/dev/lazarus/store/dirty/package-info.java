/**
 * Dirty detection for incremental checkpoints: the page-level pre-filter ({@link
 * dev.lazarus.store.dirty.WrittenPageScanner}), the block hashes that find which blocks really changed, and the
 * marks left by MPI receive hooks for ranges the network wrote.
 *
 * <p>{@link dev.lazarus.store.dirty.uffd.WrittenPageScanners#open()} picks the scanner: precise userfaultfd tracking
 * (sub-package {@code uffd}) when the kernel supports it, otherwise {@link dev.lazarus.store.dirty.AllPagesScanner},
 * which reports every page.
 */
package dev.lazarus.store.dirty;
