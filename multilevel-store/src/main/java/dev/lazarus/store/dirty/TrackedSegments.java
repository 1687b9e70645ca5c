package dev.lazarus.store.dirty;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The segments a {@link WrittenPageScanner} tracks, as (address, length) pairs in plain arrays, so that finding the
 * one being scanned allocates nothing. A segment is identified by its address and length: a scan must pass the
 * segment that was registered (or another view of exactly the same bytes). Jobs track a handful of segments, so
 * lookups are linear.
 */
public final class TrackedSegments {
    private final long pageSize;
    private long[] addresses = new long[4];
    private long[] lengths = new long[4];
    private int count;

    /** @param pageSize the unit every tracked address and length must be a multiple of */
    public TrackedSegments(long pageSize) {
        this.pageSize = pageSize;
    }

    /**
     * Checks that {@code segment} may be tracked: native, page aligned, not empty, not overlapping a tracked one.
     *
     * @throws IllegalArgumentException naming the reason, with key=value context
     */
    public void checkTrackable(MemorySegment segment) {
        if (!segment.isNative()) {
            throw new IllegalArgumentException("segment is not native (heap memory cannot be tracked): length="
                    + segment.byteSize());
        }
        long address = segment.address();
        long length = segment.byteSize();
        if (length == 0 || address % pageSize != 0 || length % pageSize != 0) {
            throw new IllegalArgumentException("segment is empty or not page aligned: " + describe(address, length)
                    + " pageSize=" + pageSize);
        }
        for (int i = 0; i < count; i++) {
            if (address < addresses[i] + lengths[i] && addresses[i] < address + length) {
                throw new IllegalArgumentException("segment overlaps a tracked one: " + describe(address, length)
                        + " trackedAddress=0x" + Long.toHexString(addresses[i]) + " trackedLength=" + lengths[i]);
            }
        }
    }

    /** Adds a segment that passed {@link #checkTrackable}. */
    public void add(MemorySegment segment) {
        if (count == addresses.length) {
            addresses = Arrays.copyOf(addresses, count * 2);
            lengths = Arrays.copyOf(lengths, count * 2);
        }
        addresses[count] = segment.address();
        lengths[count] = segment.byteSize();
        count++;
    }

    /** @return the index of the tracked segment with {@code segment}'s address and length, or -1 */
    public int indexOf(MemorySegment segment) {
        if (!segment.isNative()) {
            return -1;
        }
        long address = segment.address();
        long length = segment.byteSize();
        for (int i = 0; i < count; i++) {
            if (addresses[i] == address && lengths[i] == length) {
                return i;
            }
        }
        return -1;
    }

    /**
     * @return the index of the tracked segment with {@code segment}'s address and length
     * @throws IllegalArgumentException if it is not tracked
     */
    public int require(MemorySegment segment) {
        int index = indexOf(segment);
        if (index < 0) {
            throw new IllegalArgumentException("segment is not tracked: "
                    + describe(segment.isNative() ? segment.address() : 0, segment.byteSize()));
        }
        return index;
    }

    /** Stops tracking the segment at {@code index}; later indices shift down. */
    public void remove(int index) {
        System.arraycopy(addresses, index + 1, addresses, index, count - index - 1);
        System.arraycopy(lengths, index + 1, lengths, index, count - index - 1);
        count--;
    }

    /** @return how many segments are tracked */
    public int size() {
        return count;
    }

    /** @return the address of the tracked segment at {@code index} */
    public long address(int index) {
        return addresses[index];
    }

    /** @return the length in bytes of the tracked segment at {@code index} */
    public long length(int index) {
        return lengths[index];
    }

    /** @return the page size addresses and lengths are multiples of */
    public long pageSize() {
        return pageSize;
    }

    /** @return {@code "address=0x... length=..."}, the context of messages about a range */
    public static String describe(long address, long length) {
        return "address=0x" + Long.toHexString(address) + " length=" + length;
    }
}
