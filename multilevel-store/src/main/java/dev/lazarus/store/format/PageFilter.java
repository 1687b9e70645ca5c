package dev.lazarus.store.format;

import java.util.Collection;

/**
 * Whether the page-level pre-filter of incremental checkpointing (libhashckpt §2.1) was available to the writer of a
 * rank checkpoint: with it only pages the kernel saw written are hashed; without it every page is. Recorded in each
 * rank manifest so that {@code ckpt list} can say which versions paid for hashing everything.
 */
public enum PageFilter {
    /** Written by a format that did not record it. */
    UNKNOWN(0, "unknown"),
    /** Written pages came from the kernel (userfaultfd write-protect and PAGEMAP_SCAN). */
    TRACKED(1, "tracked"),
    /** The pre-filter was unavailable or off: every page was hashed. */
    ALL_PAGES(2, "all_pages");

    private final int code;
    private final String label;

    PageFilter(int code, String label) {
        this.code = code;
        this.label = label;
    }

    /** @return the value stored in the manifest */
    public int code() {
        return code;
    }

    /** @return the name in JSON reports: {@code unknown}, {@code tracked}, {@code all_pages} */
    public String label() {
        return label;
    }

    /** @return the filter with this manifest value, or null if none has it */
    public static PageFilter ofCode(int code) {
        for (PageFilter filter : values()) {
            if (filter.code == code) {
                return filter;
            }
        }
        return null;
    }

    /**
     * @return what a version written by several ranks used: {@link #ALL_PAGES} if any rank hashed every page, else
     *         {@link #TRACKED} if every rank tracked pages, else {@link #UNKNOWN} (none for no ranks)
     */
    public static PageFilter of(Collection<PageFilter> ranks) {
        if (ranks.contains(ALL_PAGES)) {
            return ALL_PAGES;
        }
        return !ranks.isEmpty() && ranks.stream().allMatch(f -> f == TRACKED) ? TRACKED : UNKNOWN;
    }
}
