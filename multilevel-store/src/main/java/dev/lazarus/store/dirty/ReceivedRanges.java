package dev.lazarus.store.dirty;

import java.lang.foreign.MemorySegment;
import java.util.BitSet;

/**
 * Blocks of one variable that MPI wrote since the last checkpoint, as told by the receive hooks. User-level network
 * writes bypass page protection (libhashckpt §2.1), so these blocks are hashed whatever the page pre-filter says.
 *
 * <p>A received buffer matches the variable when it is the same memory: a native segment whose addresses fall in the
 * variable's, or the same heap array.
 */
public final class ReceivedRanges {
    private final MemorySegment memory;
    private final Object heapBase;
    private final int blockSize;
    private final BitSet blocks;

    /**
     * @param memory    the variable's memory
     * @param blockSize the hashing block size
     */
    public ReceivedRanges(MemorySegment memory, int blockSize) {
        BlockHashes.checkBlockSize(blockSize);
        this.memory = memory;
        this.heapBase = memory.heapBase().orElse(null);
        this.blockSize = blockSize;
        this.blocks = new BitSet((int) Math.min(Integer.MAX_VALUE, (memory.byteSize() + blockSize - 1) / blockSize));
    }

    /**
     * Marks the blocks a receive wrote, if the buffer is this variable's memory.
     *
     * @param buffer     the receive buffer: a {@link MemorySegment} or a primitive array
     * @param byteOffset first written byte, from the buffer's start
     * @param byteLength bytes written
     * @return true if the range was in this variable
     */
    public boolean mark(Object buffer, long byteOffset, long byteLength) {
        long start;
        if (buffer instanceof MemorySegment segment) {
            if (segment.isNative() != memory.isNative()
                    || (!segment.isNative() && segment.heapBase().orElse(null) != heapBase)) {
                return false;
            }
            start = segment.address() + byteOffset - memory.address();
        } else if (buffer != null && buffer == heapBase) {
            start = byteOffset - memory.address();
        } else {
            return false;
        }
        long end = start + byteLength;
        if (byteLength <= 0 || end <= 0 || start >= memory.byteSize()) {
            return false;
        }
        start = Math.max(0, start);
        end = Math.min(memory.byteSize(), end);
        blocks.set((int) (start / blockSize), (int) ((end - 1) / blockSize) + 1);
        return true;
    }

    /** Adds the marked blocks to {@code candidates} and clears the marks. */
    public void drainInto(BitSet candidates) {
        candidates.or(blocks);
        blocks.clear();
    }
}
