package dev.lazarus.store.dirty.uffd;

import static dev.lazarus.store.dirty.uffd.PagemapScanLayout.ARG_CATEGORY_ANYOF_MASK;
import static dev.lazarus.store.dirty.uffd.PagemapScanLayout.ARG_CATEGORY_INVERTED;
import static dev.lazarus.store.dirty.uffd.PagemapScanLayout.ARG_CATEGORY_MASK;
import static dev.lazarus.store.dirty.uffd.PagemapScanLayout.ARG_END;
import static dev.lazarus.store.dirty.uffd.PagemapScanLayout.ARG_FLAGS;
import static dev.lazarus.store.dirty.uffd.PagemapScanLayout.ARG_MAX_PAGES;
import static dev.lazarus.store.dirty.uffd.PagemapScanLayout.ARG_RETURN_MASK;
import static dev.lazarus.store.dirty.uffd.PagemapScanLayout.ARG_SIZE;
import static dev.lazarus.store.dirty.uffd.PagemapScanLayout.ARG_SIZE_FIELD;
import static dev.lazarus.store.dirty.uffd.PagemapScanLayout.ARG_START;
import static dev.lazarus.store.dirty.uffd.PagemapScanLayout.ARG_VEC;
import static dev.lazarus.store.dirty.uffd.PagemapScanLayout.ARG_VEC_LEN;
import static dev.lazarus.store.dirty.uffd.PagemapScanLayout.ARG_WALK_END;
import static dev.lazarus.store.dirty.uffd.PagemapScanLayout.PAGEMAP_SCAN;
import static dev.lazarus.store.dirty.uffd.PagemapScanLayout.PAGE_IS_WRITTEN;
import static dev.lazarus.store.dirty.uffd.PagemapScanLayout.PM_SCAN_CHECK_WPASYNC;
import static dev.lazarus.store.dirty.uffd.PagemapScanLayout.PM_SCAN_WP_MATCHING;
import static dev.lazarus.store.dirty.uffd.PagemapScanLayout.REGION_END;
import static dev.lazarus.store.dirty.uffd.PagemapScanLayout.REGION_SIZE;
import static dev.lazarus.store.dirty.uffd.PagemapScanLayout.REGION_START;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.lazarus.store.dirty.PageSize;
import dev.lazarus.store.dirty.TrackedSegments;
import dev.lazarus.store.dirty.WrittenPageScanner;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Precise page tracking with userfaultfd asynchronous write-protection and the PAGEMAP_SCAN ioctl (Linux 6.7+), the
 * successor of soft-dirty bits. Registering a segment write-protects its pages; the first write to a page makes the
 * kernel clear the page's protection in the fault handler, without stopping the thread or waking anyone, which
 * marks the page written. A scan asks PAGEMAP_SCAN for the written pages of the segment and, in the same page-table
 * walk, protects them again ({@code PM_SCAN_WP_MATCHING}).
 *
 * <p>What it sees and what it does not:
 * <ul>
 *   <li>Works on shared file mappings of {@code /dev/shm} (shmem) files, the store's regions, and on private
 *       anonymous memory ({@code Arena.allocate} with page alignment). Pages never touched are protected too
 *       ({@code UFFD_FEATURE_WP_UNPOPULATED}), so the first scan after {@link #register} reports nothing.</li>
 *   <li>Any write through this process's page tables counts, even one that stores the value already there, and
 *       writes by the kernel on the process's behalf (e.g. {@code read(2)} into the segment) count as well.</li>
 *   <li>Writes that bypass the page tables are invisible: DMA by an RDMA NIC, and writes through another process's
 *       mapping of the same file. MPI receive hooks mark the ranges the network wrote for that reason.</li>
 *   <li>A written page whose page-table entry the kernel dropped (shmem swap-out, {@code MADV_DONTNEED}) leaves an
 *       empty entry, which PAGEMAP_SCAN counts as written: such pages are reported, never lost.</li>
 *   <li>A write to a transparent huge page marks the whole huge page.</li>
 * </ul>
 *
 * <p>Unregister a segment before unmapping it (closing its arena): the scanner identifies segments by address.
 * Not thread-safe; the scanning thread owns it, but writers may be any thread of the process.
 */
public final class UffdPageScanner implements WrittenPageScanner {
    /** page_region elements per PAGEMAP_SCAN call; a longer result is fetched by continuing from walk_end. */
    static final int DEFAULT_REGION_CAPACITY = 512;

    private final long pageSize = PageSize.system();
    private final TrackedSegments tracked = new TrackedSegments(pageSize);
    private final Arena arena = Arena.ofShared();
    private final MemorySegment capture = Libc.allocateCapture(arena);
    private final MemorySegment apiArg = arena.allocate(UffdLayout.API_SIZE, 8);
    private final MemorySegment registerArg = arena.allocate(UffdLayout.REGISTER_SIZE, 8);
    private final MemorySegment writeProtectArg = arena.allocate(UffdLayout.WRITEPROTECT_SIZE, 8);
    private final MemorySegment rangeArg = arena.allocate(UffdLayout.RANGE_SIZE, 8);
    private final MemorySegment scanArg = arena.allocate(ARG_SIZE, 8);
    private final MemorySegment regions;
    private final int regionCapacity;
    private final String description;
    private int uffd = -1;
    private int pagemap = -1;
    private boolean closed;
    private long scanCalls;

    // Scan state kept in fields so that merging runs across PAGEMAP_SCAN calls allocates nothing.
    private long runStart;
    private long runEnd;

    /**
     * Opens a userfaultfd with asynchronous write-protection and {@code /proc/self/pagemap}.
     *
     * @throws IllegalStateException with the failing operation and errno when the kernel lacks userfaultfd, its
     *                               asynchronous write-protection, or PAGEMAP_SCAN, or the process may not use them
     */
    public UffdPageScanner() {
        this(DEFAULT_REGION_CAPACITY);
    }

    UffdPageScanner(int regionCapacity) {
        this.regionCapacity = regionCapacity;
        this.regions = arena.allocate(REGION_SIZE * regionCapacity, 8);
        try {
            long offered = offeredFeatures();
            if ((offered & UffdLayout.UFFD_FEATURE_WP_ASYNC) == 0) {
                throw new IllegalStateException("op=UFFDIO_API reason=kernel lacks UFFD_FEATURE_WP_ASYNC features=0x"
                        + Long.toHexString(offered));
            }
            long wanted = UffdLayout.UFFD_FEATURE_WP_ASYNC | (offered & UffdLayout.UFFD_FEATURE_WP_UNPOPULATED);
            uffd = openUffd();
            handshake(uffd, wanted);
            pagemap = Libc.open(capture, "/proc/self/pagemap", Libc.O_RDONLY | Libc.O_CLOEXEC);
            if (pagemap < 0) {
                throw failure("op=open path=/proc/self/pagemap");
            }
            probePagemapScan();
            description = "userfaultfd async write-protect + PAGEMAP_SCAN (features=0x" + Long.toHexString(wanted)
                    + ")";
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Asks a throwaway userfaultfd for the features this kernel offers: UFFDIO_API may be called once per fd. */
    private long offeredFeatures() {
        int fd = openUffd();
        try {
            handshake(fd, 0);
            return apiArg.get(JAVA_LONG, UffdLayout.API_FEATURES);
        } finally {
            Libc.close(capture, fd);
        }
    }

    private int openUffd() {
        int flags = Libc.O_CLOEXEC | Libc.O_NONBLOCK | UffdLayout.UFFD_USER_MODE_ONLY;
        int fd = Libc.userfaultfd(capture, flags);
        if (fd < 0) {
            throw failure("op=userfaultfd flags=0x" + Integer.toHexString(flags));
        }
        return fd;
    }

    private void handshake(int fd, long features) {
        apiArg.set(JAVA_LONG, UffdLayout.API_API, UffdLayout.UFFD_API);
        apiArg.set(JAVA_LONG, UffdLayout.API_FEATURES, features);
        apiArg.set(JAVA_LONG, UffdLayout.API_IOCTLS, 0);
        if (Libc.ioctl(capture, fd, UffdLayout.UFFDIO_API, apiArg) < 0) {
            throw failure("op=UFFDIO_API features=0x" + Long.toHexString(features));
        }
    }

    /** An empty scan: fails with ENOTTY on kernels without PAGEMAP_SCAN, so construction fails rather than scans. */
    private void probePagemapScan() {
        prepareScan(0, 0, 0);
        if (Libc.ioctl(capture, pagemap, PAGEMAP_SCAN, scanArg) < 0) {
            throw failure("op=PAGEMAP_SCAN reason=probe");
        }
    }

    @Override
    public void register(MemorySegment segment) {
        checkOpen();
        tracked.checkTrackable(segment);
        long address = segment.address();
        long length = segment.byteSize();
        registerArg.set(JAVA_LONG, UffdLayout.REGISTER_START, address);
        registerArg.set(JAVA_LONG, UffdLayout.REGISTER_LEN, length);
        registerArg.set(JAVA_LONG, UffdLayout.REGISTER_MODE, UffdLayout.UFFDIO_REGISTER_MODE_WP);
        registerArg.set(JAVA_LONG, UffdLayout.REGISTER_IOCTLS, 0);
        if (Libc.ioctl(capture, uffd, UffdLayout.UFFDIO_REGISTER, registerArg) < 0) {
            throw new IllegalArgumentException("op=UFFDIO_REGISTER " + TrackedSegments.describe(address, length)
                    + " " + errnoText());
        }
        if ((registerArg.get(JAVA_LONG, UffdLayout.REGISTER_IOCTLS) & UffdLayout.IOCTL_WRITEPROTECT_BIT) == 0) {
            unregisterRange(address, length);
            throw new IllegalArgumentException("op=UFFDIO_REGISTER reason=write-protect not supported for this"
                    + " mapping " + TrackedSegments.describe(address, length));
        }
        writeProtectArg.set(JAVA_LONG, UffdLayout.WRITEPROTECT_START, address);
        writeProtectArg.set(JAVA_LONG, UffdLayout.WRITEPROTECT_LEN, length);
        writeProtectArg.set(JAVA_LONG, UffdLayout.WRITEPROTECT_MODE, UffdLayout.UFFDIO_WRITEPROTECT_MODE_WP);
        if (Libc.ioctl(capture, uffd, UffdLayout.UFFDIO_WRITEPROTECT, writeProtectArg) < 0) {
            IllegalStateException failure = failure("op=UFFDIO_WRITEPROTECT "
                    + TrackedSegments.describe(address, length));
            unregisterRange(address, length);
            throw failure;
        }
        tracked.add(segment);
    }

    @Override
    public void unregister(MemorySegment segment) {
        checkOpen();
        int index = tracked.indexOf(segment);
        if (index < 0) {
            return;
        }
        long address = tracked.address(index);
        long length = tracked.length(index);
        tracked.remove(index);
        if (unregisterRange(address, length) < 0) {
            int errno = Libc.errno(capture);
            // EINVAL or ENOMEM: nothing is mapped there any more, and unmapping ended the registration already.
            if (errno != Libc.EINVAL && errno != Libc.ENOMEM) {
                throw failure("op=UFFDIO_UNREGISTER " + TrackedSegments.describe(address, length));
            }
        }
    }

    private int unregisterRange(long address, long length) {
        rangeArg.set(JAVA_LONG, UffdLayout.RANGE_START, address);
        rangeArg.set(JAVA_LONG, UffdLayout.RANGE_LEN, length);
        return Libc.ioctl(capture, uffd, UffdLayout.UFFDIO_UNREGISTER, rangeArg);
    }

    @Override
    public long scanAndReset(MemorySegment segment, WrittenRangeSink sink) {
        checkOpen();
        int index = tracked.require(segment);
        long start = tracked.address(index);
        long end = start + tracked.length(index);
        long pages = 0;
        runStart = -1;
        runEnd = -1;
        long cursor = start;
        while (cursor < end) {
            prepareScan(cursor, end, regionCapacity);
            int filled = Libc.ioctlWithoutErrno(pagemap, PAGEMAP_SCAN, scanArg);
            scanCalls++;
            if (filled < 0) {
                // Rare: ask again capturing errno, to tell an interrupted scan (retried) from a failure (thrown).
                prepareScan(cursor, end, regionCapacity);
                filled = Libc.ioctl(capture, pagemap, PAGEMAP_SCAN, scanArg);
                scanCalls++;
            }
            if (filled < 0) {
                if (Libc.errno(capture) == Libc.EINTR) {
                    continue;
                }
                throw failure("op=PAGEMAP_SCAN " + TrackedSegments.describe(start, end - start)
                        + " cursor=0x" + Long.toHexString(cursor));
            }
            pages += emitRegions(filled, start, sink);
            long walkEnd = scanArg.get(JAVA_LONG, ARG_WALK_END);
            if (walkEnd <= cursor) { // the kernel always makes progress; guard against an endless loop anyway
                throw new IllegalStateException("op=PAGEMAP_SCAN reason=no progress cursor=0x"
                        + Long.toHexString(cursor) + " walkEnd=0x" + Long.toHexString(walkEnd));
            }
            cursor = walkEnd;
        }
        if (runStart >= 0) {
            sink.written(runStart - start, runEnd - runStart);
        }
        return pages;
    }

    /** Merges the filled page_regions into the pending run, passing each finished run to the sink. */
    private long emitRegions(int filled, long segmentStart, WrittenRangeSink sink) {
        long pages = 0;
        for (int i = 0; i < filled; i++) {
            long regionStart = regions.get(JAVA_LONG, i * REGION_SIZE + REGION_START);
            long regionEnd = regions.get(JAVA_LONG, i * REGION_SIZE + REGION_END);
            pages += (regionEnd - regionStart) / pageSize;
            if (regionStart == runEnd) {
                runEnd = regionEnd;
                continue;
            }
            if (runStart >= 0) {
                sink.written(runStart - segmentStart, runEnd - runStart);
            }
            runStart = regionStart;
            runEnd = regionEnd;
        }
        return pages;
    }

    /**
     * Fills pm_scan_arg for the written pages of [start, end). The query is exactly category_mask = return_mask =
     * PAGE_IS_WRITTEN, which counts every entry that is not write-protected as written, empty ones included.
     */
    private void prepareScan(long start, long end, long vectorLength) {
        scanArg.set(JAVA_LONG, ARG_SIZE_FIELD, ARG_SIZE);
        scanArg.set(JAVA_LONG, ARG_FLAGS, vectorLength == 0 ? 0 : PM_SCAN_WP_MATCHING | PM_SCAN_CHECK_WPASYNC);
        scanArg.set(JAVA_LONG, ARG_START, start);
        scanArg.set(JAVA_LONG, ARG_END, end);
        scanArg.set(JAVA_LONG, ARG_WALK_END, 0);
        scanArg.set(JAVA_LONG, ARG_VEC, vectorLength == 0 ? 0 : regions.address());
        scanArg.set(JAVA_LONG, ARG_VEC_LEN, vectorLength);
        scanArg.set(JAVA_LONG, ARG_MAX_PAGES, 0);
        scanArg.set(JAVA_LONG, ARG_CATEGORY_INVERTED, 0);
        scanArg.set(JAVA_LONG, ARG_CATEGORY_MASK, PAGE_IS_WRITTEN);
        scanArg.set(JAVA_LONG, ARG_CATEGORY_ANYOF_MASK, 0);
        scanArg.set(JAVA_LONG, ARG_RETURN_MASK, PAGE_IS_WRITTEN);
    }

    @Override
    public boolean precise() {
        return true;
    }

    @Override
    public String description() {
        return description;
    }

    /** @return PAGEMAP_SCAN calls made by scans so far; more than one per scan means the vector filled up */
    long scanCalls() {
        return scanCalls;
    }

    /**
     * Unregisters every tracked segment and closes both file descriptors. Unregistering is best effort: a segment
     * unmapped already has no registration left. Closing the userfaultfd drops any protection left, so writes to
     * the segments keep working. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (uffd >= 0) {
            for (int i = tracked.size() - 1; i >= 0; i--) {
                unregisterRange(tracked.address(i), tracked.length(i));
                tracked.remove(i);
            }
            Libc.close(capture, uffd);
        }
        if (pagemap >= 0) {
            Libc.close(capture, pagemap);
        }
        arena.close();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("scanner is closed");
        }
    }

    /** @return an exception for the call that just failed; build it before the next call overwrites errno */
    private IllegalStateException failure(String context) {
        return new IllegalStateException(context + " " + errnoText());
    }

    private String errnoText() {
        return Libc.describe(Libc.errno(capture));
    }
}
