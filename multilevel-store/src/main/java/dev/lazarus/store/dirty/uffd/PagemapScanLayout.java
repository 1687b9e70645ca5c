package dev.lazarus.store.dirty.uffd;

/**
 * The PAGEMAP_SCAN ioctl on {@code /proc/self/pagemap} ({@code include/uapi/linux/fs.h}, Linux 6.7+): its argument,
 * the output vector's element, and the flag and category bits. Every field is a little-endian {@code __u64}.
 *
 * <pre>
 *  struct pm_scan_arg   (96 bytes, PAGEMAP_SCAN = _IOWR('f', 16, 96) = 0xC0606610)
 *  offset  size  field
 *       0     8  size                 sizeof(struct pm_scan_arg), i.e. 96
 *       8     8  flags                PM_SCAN_WP_MATCHING | PM_SCAN_CHECK_WPASYNC
 *      16     8  start                first address to scan, page aligned
 *      24     8  end                  end of the scan (exclusive)
 *      32     8  walk_end             out: where the walk stopped; == end when the whole range was walked
 *      40     8  vec                  address of a page_region array
 *      48     8  vec_len              its length in elements
 *      56     8  max_pages            0 = no limit
 *      64     8  category_inverted    categories that match when 0
 *      72     8  category_mask        a page is skipped unless it has every one of these
 *      80     8  category_anyof_mask  a page is skipped unless it has one of these (0 = no condition)
 *      88     8  return_mask          categories reported in page_region.categories
 *
 *  struct page_region   (24 bytes; the ioctl returns how many it filled, adjacent alike pages merged)
 *       0     8  start                first address of the run
 *       8     8  end                  end of the run (exclusive)
 *      16     8  categories           PAGE_IS_* bits of the run, limited to return_mask
 * </pre>
 */
final class PagemapScanLayout {
    /** Write-protect again the pages that matched (and were reported), atomically with reporting them. */
    static final long PM_SCAN_WP_MATCHING = 1L << 0;
    /** Fail the scan (EPERM) on a range without asynchronous write-protection instead of reporting nonsense. */
    static final long PM_SCAN_CHECK_WPASYNC = 1L << 1;

    /** The page was written since it was last write-protected. */
    static final long PAGE_IS_WRITTEN = 1L << 1;

    static final long ARG_SIZE = 96;
    static final long ARG_SIZE_FIELD = 0;
    static final long ARG_FLAGS = 8;
    static final long ARG_START = 16;
    static final long ARG_END = 24;
    static final long ARG_WALK_END = 32;
    static final long ARG_VEC = 40;
    static final long ARG_VEC_LEN = 48;
    static final long ARG_MAX_PAGES = 56;
    static final long ARG_CATEGORY_INVERTED = 64;
    static final long ARG_CATEGORY_MASK = 72;
    static final long ARG_CATEGORY_ANYOF_MASK = 80;
    static final long ARG_RETURN_MASK = 88;

    static final long REGION_SIZE = 24;
    static final long REGION_START = 0;
    static final long REGION_END = 8;
    static final long REGION_CATEGORIES = 16;

    static final long PAGEMAP_SCAN = Ioctl.readWrite('f', 16, ARG_SIZE);

    private PagemapScanLayout() {
    }
}
