package dev.lazarus.store.dirty;

import net.openhft.hashing.LongTupleHashFunction;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.BitSet;

/**
 * The 128-bit hash of every block of one variable as of the last checkpoint, and the comparison that tells which
 * blocks changed since (libhashckpt §2.1). XXH3-128 is used: libhashckpt shows that CRC32 and XOR signatures alias
 * too often to trust for change detection, and 128 bits make a missed change (two different contents, one hash)
 * vanishingly unlikely at a fraction of MD5's cost.
 *
 * <p>Not thread-safe: one checkpointing thread owns it. {@link #hashChanged} allocates nothing.
 */
public final class BlockHashes {
    /** For the rare block {@link Xxh3Long128} does not take: the same function, from the library. */
    private static final LongTupleHashFunction XXH3_128 = LongTupleHashFunction.xx128();

    private final long byteSize;
    private final int blockSize;
    private final int blocks;
    private final long[] hashes;
    private final long[] result = new long[2];
    /** The block being hashed, as little-endian words. */
    private final long[] words;
    /** A last block that is short or not whole words. */
    private final byte[] tail;
    private boolean known;

    /**
     * @param byteSize  the variable's size in bytes
     * @param blockSize bytes per block, a power of two from 256 to 65536
     */
    public BlockHashes(long byteSize, int blockSize) {
        checkBlockSize(blockSize);
        long count = (byteSize + blockSize - 1) / blockSize;
        if (count > Integer.MAX_VALUE / 2) {
            throw new IllegalArgumentException("bytes=" + byteSize + " has too many blocks of " + blockSize);
        }
        this.byteSize = byteSize;
        this.blockSize = blockSize;
        this.blocks = (int) count;
        this.hashes = new long[2 * blocks];
        this.words = new long[blockSize / Long.BYTES];
        this.tail = new byte[blockSize];
    }

    /** @throws IllegalArgumentException unless the size is a power of two from 256 to 65536 */
    public static void checkBlockSize(int blockSize) {
        if (Integer.bitCount(blockSize) != 1 || blockSize < 256 || blockSize > 65536) {
            throw new IllegalArgumentException("blockSize=" + blockSize + " must be a power of two from 256 to 65536");
        }
    }

    public int blocks() {
        return blocks;
    }

    public int blockSize() {
        return blockSize;
    }

    /** Forgets every hash: the next check treats all blocks as changed (after a restore, say). */
    public void forget() {
        known = false;
    }

    /**
     * Hashes the candidate blocks and sets in {@code changed} those whose hash differs from the stored one, then stores
     * the new hashes. Until every block has been hashed once, all blocks are candidates and all are changed.
     *
     * @param memory     the variable's memory, {@code byteSize} bytes
     * @param candidates blocks that may have changed (written pages, received ranges); ignored until known
     * @param changed    cleared, then receives the changed blocks
     * @return the number of blocks hashed
     */
    public int hashChanged(MemorySegment memory, BitSet candidates, BitSet changed) {
        if (memory.byteSize() != byteSize) {
            throw new IllegalArgumentException("memory bytes=" + memory.byteSize() + " expected " + byteSize);
        }
        changed.clear();
        int hashed = 0;
        if (!known) {
            for (int block = 0; block < blocks; block++) {
                hashBlock(memory, block);
                changed.set(block);
            }
            known = true;
            return blocks;
        }
        for (int block = candidates.nextSetBit(0); block >= 0 && block < blocks;
                block = candidates.nextSetBit(block + 1)) {
            if (hashBlock(memory, block)) {
                changed.set(block);
            }
            hashed++;
        }
        return hashed;
    }

    /** Hashes one block, stores the hash, and returns whether it differs from the previous one. */
    private boolean hashBlock(MemorySegment memory, int block) {
        long offset = (long) block * blockSize;
        int length = (int) Math.min(blockSize, byteSize - offset);
        if (Xxh3Long128.accepts(length)) {
            // One bulk copy into an L1-resident array, whatever the segment: the hash loop then sees only long[].
            MemorySegment.copy(memory, Xxh3Long128.LE, offset, words, 0, length / Long.BYTES);
            Xxh3Long128.hash(words, 0, length, result);
        } else {
            // A variable's short or ragged last block: the library's general XXH3-128, same function.
            MemorySegment.copy(memory, ValueLayout.JAVA_BYTE, offset, tail, 0, length);
            XXH3_128.hashBytes(tail, 0, length, result);
        }
        int slot = 2 * block;
        boolean differs = hashes[slot] != result[0] || hashes[slot + 1] != result[1];
        hashes[slot] = result[0];
        hashes[slot + 1] = result[1];
        return differs;
    }
}
