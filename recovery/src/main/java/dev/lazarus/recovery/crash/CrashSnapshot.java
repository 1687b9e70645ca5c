package dev.lazarus.recovery.crash;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * What survives a crash at one point of a run: the NVM image of a heap range, where the main loop was, and how
 * inconsistent each object of interest is. A restart test writes {@link #copyImageTo the image} into a heap and
 * resumes at {@link #iteration()}.
 *
 * <p>The image is owned by the snapshot and not copied by its accessors: a snapshot of a class S heap is a few MB, and
 * campaigns stream thousands of them.
 */
public final class CrashSnapshot {
    private final int ordinal;
    private final long accessIndex;
    private final int iteration;
    private final int region;
    private final long imageOffset;
    private final byte[] image;
    private final InconsistencyReport inconsistency;
    private final int dirtyLines;
    private final long nvmLineWrites;

    CrashSnapshot(int ordinal, long accessIndex, int iteration, int region, long imageOffset, byte[] image,
                  InconsistencyReport inconsistency, int dirtyLines, long nvmLineWrites) {
        this.ordinal = ordinal;
        this.accessIndex = accessIndex;
        this.iteration = iteration;
        this.region = region;
        this.imageOffset = imageOffset;
        this.image = image;
        this.inconsistency = inconsistency;
        this.dirtyLines = dirtyLines;
        this.nvmLineWrites = nvmLineWrites;
    }

    /** Position of this crash among the run's crash points (0 for a snapshot taken directly from the model). */
    public int ordinal() {
        return ordinal;
    }

    /** Traced accesses (loads and stores) completed before the crash: the crash point. */
    public long accessIndex() {
        return accessIndex;
    }

    /** The main-loop iteration in progress (the last {@code iterationBegin}), or -1 before the main loop. */
    public int iteration() {
        return iteration;
    }

    /**
     * The code region in progress: one past the last region that ended in this iteration, so 0 until region 0
     * ends, and the region count after the last region ended.
     */
    public int region() {
        return region;
    }

    /** Heap offset of the image's first byte. */
    public long imageOffset() {
        return imageOffset;
    }

    /** Bytes in the image. */
    public long imageLength() {
        return image.length;
    }

    /** The NVM image as a read-only segment; byte 0 is heap offset {@link #imageOffset()}. */
    public MemorySegment nvmImage() {
        return MemorySegment.ofArray(image).asReadOnly();
    }

    /** The NVM byte at heap offset {@code heapOffset}. */
    public byte nvmByte(long heapOffset) {
        return image[Math.toIntExact(heapOffset - imageOffset)];
    }

    /** The NVM long at heap offset {@code heapOffset} (native byte order, as the heap stores it). */
    public long nvmLong(long heapOffset) {
        return MemorySegment.ofArray(image).get(ValueLayout.JAVA_LONG_UNALIGNED, heapOffset - imageOffset);
    }

    /** Writes the image into {@code heap} at {@link #imageOffset()}: the heap becomes what NVM held at the crash. */
    public void copyImageTo(MemorySegment heap) {
        MemorySegment.copy(image, 0, heap, ValueLayout.JAVA_BYTE, imageOffset, image.length);
    }

    /** Dirty bytes and inconsistent rate of each object of interest (empty when none were given). */
    public InconsistencyReport inconsistency() {
        return inconsistency;
    }

    /** Dirty lines in the hierarchy at the crash (over the whole heap). */
    public int dirtyLines() {
        return dirtyLines;
    }

    /** Lines written back to NVM (evictions and persists) before the crash: the paper's NVM write count. */
    public long nvmLineWrites() {
        return nvmLineWrites;
    }

    @Override
    public String toString() {
        return "CrashSnapshot[ordinal=" + ordinal + ", accessIndex=" + accessIndex + ", iteration=" + iteration
                + ", region=" + region + ", image=[" + imageOffset + ", " + (imageOffset + image.length)
                + "), dirtyLines=" + dirtyLines + ", nvmLineWrites=" + nvmLineWrites + "]";
    }
}
