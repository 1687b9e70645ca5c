package dev.lazarus.store.level.xor;

import java.util.Arrays;

/**
 * Where every byte of an XOR set goes: the set size n, each member's payload size, the chunk size, and which
 * member's parity chunk each data chunk is folded into (the scheme of LLNL SCR and its successor redset, after Gropp,
 * Ross and Miller, "Providing Efficient I/O Redundancy in MPI Environments", 2004, which is RAID-5 across nodes).
 *
 * <p>Each member's payload is split into n-1 data chunks of {@link #chunkSize()} bytes, zero-padded past its size.
 * Logically a zero chunk is inserted at position {@code m} of member {@code m}'s payload, which gives every member n
 * positions; parity chunk {@code h}, stored by member {@code h}, is the XOR of position {@code h} across the set.
 * Member {@code h}'s own zero chunk sits in column {@code h}, so its parity holds nothing of its own data, and each
 * member's n-1 data chunks land in the parity of the n-1 other members, one each. For n = 4:
 *
 * <pre>
 *   logical position:      0        1        2        3
 *                       +--------+--------+--------+--------+
 *   member 0 payload    |  zero  |  d0.0  |  d0.1  |  d0.2  |
 *   member 1 payload    |  d1.0  |  zero  |  d1.1  |  d1.2  |
 *   member 2 payload    |  d2.0  |  d2.1  |  zero  |  d2.2  |
 *   member 3 payload    |  d3.0  |  d3.1  |  d3.2  |  zero  |
 *                       +--------+--------+--------+--------+
 *                          XOR      XOR      XOR      XOR
 *                           v        v        v        v
 *   parity chunk           P0       P1       P2       P3      (P_h is stored by member h)
 *
 *   dm.c = bytes [c * chunkSize, (c + 1) * chunkSize) of member m's payload, zero past its size
 *   data chunk c of member m goes into parity of member  c &lt; m ? c : c + 1   ({@link #parityHolder})
 *   parity of member h takes chunk  h &lt; m ? h : h - 1  of member m           ({@link #chunkInParity})
 * </pre>
 *
 * <p>Losing member {@code L}: its data chunk {@code c} is {@code P_h} XOR the other n-2 entries of column
 * {@code h = parityHolder(L, c)}, and {@code P_L} is recomputed from the survivors' data alone.
 *
 * <p>The chunk size is {@code ceil(max payload / (n-1))} rounded up to {@link #CHUNK_ALIGNMENT}, so the XOR loop works
 * on whole longs; with all payloads empty it is zero. Instances are immutable.
 */
public final class XorSetLayout {
    /** Fewest members: with one there is nobody to hold the parity. */
    public static final int MIN_SET_SIZE = 2;
    /** Most members: past this, rebuild reads too much (every survivor) for the one failure it tolerates. */
    public static final int MAX_SET_SIZE = 256;
    /** SCR's default XOR set size: 1/7 storage overhead, and a set rarely loses two nodes at once. */
    public static final int DEFAULT_SET_SIZE = 8;
    /** Chunk sizes are multiples of this, so {@link XorKernel#xorInto} runs on whole longs. */
    public static final int CHUNK_ALIGNMENT = Long.BYTES;

    private final long[] payloadSizes;
    private final long maxPayloadSize;
    private final long chunkSize;

    private XorSetLayout(long[] payloadSizes, long maxPayloadSize, long chunkSize) {
        this.payloadSizes = payloadSizes;
        this.maxPayloadSize = maxPayloadSize;
        this.chunkSize = chunkSize;
    }

    /**
     * @param payloadSizes the payload size in bytes of each member, in set-rank order; the set size is their count
     * @return the layout of that set
     * @throws IllegalArgumentException if there are fewer than {@value #MIN_SET_SIZE} or more than
     *                                  {@value #MAX_SET_SIZE} members, a size is negative, or n-1 chunks would not
     *                                  fit in a {@code long}
     */
    public static XorSetLayout of(long... payloadSizes) {
        int n = payloadSizes.length;
        if (n < MIN_SET_SIZE) {
            throw new IllegalArgumentException("XOR set too small: setSize=" + n + " min=" + MIN_SET_SIZE);
        }
        if (n > MAX_SET_SIZE) {
            throw new IllegalArgumentException("XOR set too large: setSize=" + n + " max=" + MAX_SET_SIZE);
        }
        long max = 0;
        for (int m = 0; m < n; m++) {
            if (payloadSizes[m] < 0) {
                throw new IllegalArgumentException("negative payload size: member=" + m + " size=" + payloadSizes[m]);
            }
            max = Math.max(max, payloadSizes[m]);
        }
        long chunk = Math.ceilDiv(max, n - 1);
        long aligned = Math.ceilDiv(chunk, CHUNK_ALIGNMENT);
        if (aligned > Long.MAX_VALUE / CHUNK_ALIGNMENT / (n - 1)) {
            throw new IllegalArgumentException("payload too large for XOR set: maxPayloadSize=" + max
                    + " setSize=" + n);
        }
        return new XorSetLayout(payloadSizes.clone(), max, aligned * CHUNK_ALIGNMENT);
    }

    /** @return n, the number of members */
    public int setSize() {
        return payloadSizes.length;
    }

    /** @return n-1, the number of data chunks each member's payload is split into */
    public int dataChunksPerMember() {
        return payloadSizes.length - 1;
    }

    /** @return the size in bytes of every data chunk and of every member's parity chunk */
    public long chunkSize() {
        return chunkSize;
    }

    /** @return the largest payload size in the set */
    public long maxPayloadSize() {
        return maxPayloadSize;
    }

    /** @return the size of a payload padded with zeros to n-1 chunks, the same for every member */
    public long paddedPayloadSize() {
        return chunkSize * dataChunksPerMember();
    }

    /**
     * @return the original (unpadded) payload size of a member, which a rebuild restores exactly
     * @throws IllegalArgumentException if {@code member} is not in {@code [0, n)}
     */
    public long payloadSize(int member) {
        return payloadSizes[checkMember(member)];
    }

    /**
     * @return the byte offset of data chunk {@code chunk} within a member's payload
     * @throws IllegalArgumentException if {@code chunk} is not in {@code [0, n-1)}
     */
    public long chunkOffset(int chunk) {
        return checkChunk(chunk) * chunkSize;
    }

    /**
     * @param member a member
     * @param chunk  one of its data chunks
     * @return the member whose parity chunk that data chunk is folded into; never {@code member} itself
     * @throws IllegalArgumentException if {@code member} or {@code chunk} is out of range
     */
    public int parityHolder(int member, int chunk) {
        checkMember(member);
        checkChunk(chunk);
        // Skipping the member's own column: its zero chunk sits at logical position `member`.
        return chunk < member ? chunk : chunk + 1;
    }

    /**
     * The inverse of {@link #parityHolder}.
     *
     * @param holder      the member storing the parity chunk
     * @param contributor another member
     * @return the data chunk of {@code contributor} folded into {@code holder}'s parity
     * @throws IllegalArgumentException if either is out of range or they are the same member
     */
    public int chunkInParity(int holder, int contributor) {
        checkMember(holder);
        checkMember(contributor);
        if (holder == contributor) {
            throw new IllegalArgumentException("a member's parity holds none of its own data: holder=" + holder
                    + " contributor=" + contributor);
        }
        return holder < contributor ? holder : holder - 1;
    }

    private int checkMember(int member) {
        if (member < 0 || member >= payloadSizes.length) {
            throw new IllegalArgumentException("member out of range: member=" + member
                    + " setSize=" + payloadSizes.length);
        }
        return member;
    }

    private int checkChunk(int chunk) {
        if (chunk < 0 || chunk >= dataChunksPerMember()) {
            throw new IllegalArgumentException("chunk out of range: chunk=" + chunk
                    + " dataChunksPerMember=" + dataChunksPerMember());
        }
        return chunk;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof XorSetLayout other && Arrays.equals(payloadSizes, other.payloadSizes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(payloadSizes);
    }

    @Override
    public String toString() {
        return "XorSetLayout[setSize=" + payloadSizes.length + " chunkSize=" + chunkSize
                + " payloadSizes=" + Arrays.toString(payloadSizes) + "]";
    }
}
