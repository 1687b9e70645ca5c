package dev.lazarus.store.level.xor;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * Encodes parity chunks and rebuilds a lost member of an XOR set ({@link XorSetLayout}) on one node, streaming in
 * slices so memory stays at two slices however large the payloads are.
 *
 * <p>Every parity byte is the XOR of one column of the layout, so work goes slice by slice down the columns: load
 * the first source's slice into an accumulator, fold in the others, write it out. Sources past their end contribute
 * zeros and are skipped, which keeps a set with one huge payload from costing n times that payload.
 *
 * <p>A codec is used by one thread at a time; after construction it allocates nothing. Output channels must be
 * blocking.
 */
public final class XorCodec {
    /** Slice size: large enough to amortize a read call, small enough to stay in the L2/L3 cache with its twin. */
    public static final int DEFAULT_SLICE_BYTES = 1 << 20;

    private final int sliceBytes;
    private final MemorySegment acc;
    private final MemorySegment scratch;
    private final ByteBuffer accView;
    private final SequentialSink sequential = new SequentialSink();

    /** A codec with {@value #DEFAULT_SLICE_BYTES}-byte slices. */
    public XorCodec() {
        this(DEFAULT_SLICE_BYTES);
    }

    /**
     * @param sliceBytes bytes processed per step, a positive multiple of 8
     * @throws IllegalArgumentException if {@code sliceBytes} is not
     */
    public XorCodec(int sliceBytes) {
        if (sliceBytes <= 0 || sliceBytes % Long.BYTES != 0) {
            throw new IllegalArgumentException("slice size must be a positive multiple of 8: sliceBytes="
                    + sliceBytes);
        }
        this.sliceBytes = sliceBytes;
        // Arena.ofAuto: freed with the codec, which has no close(); 64-byte alignment keeps slices on cache lines.
        Arena arena = Arena.ofAuto();
        this.acc = arena.allocate(sliceBytes, 64);
        this.scratch = arena.allocate(sliceBytes, 64);
        this.accView = acc.asByteBuffer();
    }

    /**
     * Computes the parity chunk member {@code holder} stores: {@link XorSetLayout#chunkSize()} bytes.
     *
     * @param data      every member's payload by set rank; {@code data[holder]} is not read and may be null
     * @param parityOut receives the parity chunk
     * @throws IllegalArgumentException if {@code holder} is out of range, a needed source is missing, or a source's
     *                                  size differs from the layout
     * @throws IOException              if reading a source or writing fails
     */
    public void encodeParity(XorSetLayout layout, int holder, PayloadSource[] data, WritableByteChannel parityOut)
            throws IOException {
        checkSources(layout, holder, data, null);
        encodeColumns(layout, holder, data, 0, layout.chunkSize(), sequential.to(parityOut));
    }

    /**
     * Computes bytes {@code [columns.begin(), columns.end())} of the parity chunk member {@code holder} stores: one
     * worker's share when several compute one chunk in parallel, each with its own codec and sources.
     *
     * @param parityOut receives the slices with their positions in the parity chunk, in increasing order
     * @see #encodeParity(XorSetLayout, int, PayloadSource[], WritableByteChannel)
     */
    public void encodeParity(XorSetLayout layout, int holder, PayloadSource[] data, ColumnRange columns,
                             SliceSink parityOut) throws IOException {
        checkSources(layout, holder, data, null);
        columns.check(layout);
        encodeColumns(layout, holder, data, columns.begin(), columns.end(), parityOut);
    }

    private void encodeColumns(XorSetLayout layout, int holder, PayloadSource[] data, long begin, long end,
                               SliceSink parityOut) throws IOException {
        for (long offset = begin; offset < end; offset += sliceBytes) {
            int length = (int) Math.min(sliceBytes, end - offset);
            if (!foldColumn(layout, holder, holder, data, offset, length, false)) {
                XorKernel.zero(acc, 0, length);
            }
            parityOut.write(offset, slice(length));
        }
    }

    /**
     * Rebuilds the payload of member {@code lost}: exactly {@link XorSetLayout#payloadSize(int) payloadSize(lost)}
     * bytes, from the survivors' payloads and parity chunks.
     *
     * @param data    payloads by set rank; {@code data[lost]} is not read and may be null
     * @param parity  parity chunks by set rank, each {@link XorSetLayout#chunkSize()} bytes; {@code parity[lost]} is
     *                not read and may be null
     * @param dataOut receives the rebuilt payload
     * @throws IllegalArgumentException if {@code lost} is out of range, a needed source is missing, or a source's
     *                                  size differs from the layout
     * @throws IOException              if reading a source or writing fails
     */
    public void rebuildData(XorSetLayout layout, int lost, PayloadSource[] data, PayloadSource[] parity,
                            WritableByteChannel dataOut) throws IOException {
        checkSources(layout, lost, data, parity);
        rebuildColumns(layout, lost, data, parity, 0, layout.chunkSize(), sequential.to(dataOut));
    }

    /**
     * Rebuilds bytes {@code [columns.begin(), columns.end())} of every data chunk of member {@code lost}: one
     * worker's share when several rebuild one member in parallel, each with its own codec and sources.
     *
     * @param dataOut receives the slices with their positions in the lost payload, in increasing order; nothing past
     *                the payload's size
     * @see #rebuildData(XorSetLayout, int, PayloadSource[], PayloadSource[], WritableByteChannel)
     */
    public void rebuildData(XorSetLayout layout, int lost, PayloadSource[] data, PayloadSource[] parity,
                            ColumnRange columns, SliceSink dataOut) throws IOException {
        checkSources(layout, lost, data, parity);
        columns.check(layout);
        rebuildColumns(layout, lost, data, parity, columns.begin(), columns.end(), dataOut);
    }

    private void rebuildColumns(XorSetLayout layout, int lost, PayloadSource[] data, PayloadSource[] parity,
                                long begin, long end, SliceSink dataOut) throws IOException {
        long size = layout.payloadSize(lost);
        long chunk = layout.chunkSize();
        for (int c = 0; c < layout.dataChunksPerMember(); c++) {
            int holder = layout.parityHolder(lost, c);
            for (long offset = begin; offset < end; offset += sliceBytes) {
                // Padding bytes of the lost payload are known zeros: rebuild only up to its size.
                long position = c * chunk + offset;
                int length = (int) Math.min(Math.min(sliceBytes, end - offset), size - position);
                if (length <= 0) {
                    return;
                }
                parity[holder].read(offset, acc, 0, length);
                foldColumn(layout, holder, lost, data, offset, length, true);
                dataOut.write(position, slice(length));
            }
        }
    }

    /**
     * Rebuilds member {@code lost}'s payload and then its parity chunk, which needs the survivors' payloads only.
     *
     * @see #rebuildData
     * @see #encodeParity
     */
    public void rebuild(XorSetLayout layout, int lost, PayloadSource[] data, PayloadSource[] parity,
                        WritableByteChannel dataOut, WritableByteChannel parityOut) throws IOException {
        rebuildData(layout, lost, data, parity, dataOut);
        encodeParity(layout, lost, data, parityOut);
    }

    /**
     * XORs into the accumulator the slice {@code [offset, offset + length)} of every data chunk in {@code holder}'s
     * column except {@code skip}'s (the holder itself when encoding, the lost member when rebuilding).
     *
     * @param loaded whether the accumulator already holds a value to fold into
     * @return whether the accumulator now holds a value; if not, the column slice is all zeros
     */
    private boolean foldColumn(XorSetLayout layout, int holder, int skip, PayloadSource[] data, long offset,
                               int length, boolean loaded) throws IOException {
        for (int m = 0; m < layout.setSize(); m++) {
            if (m == holder || m == skip) {
                continue;
            }
            long position = layout.chunkOffset(layout.chunkInParity(holder, m)) + offset;
            if (position >= data[m].size()) {
                continue;
            }
            if (loaded) {
                data[m].xorInto(position, acc, 0, length, scratch);
            } else {
                data[m].read(position, acc, 0, length);
                loaded = true;
            }
        }
        return loaded;
    }

    /** @return the accumulator's first {@code length} bytes as a buffer (the same buffer every call) */
    private ByteBuffer slice(int length) {
        return accView.clear().limit(length);
    }

    /**
     * A sink that writes every slice to one channel in turn, right only for slices that arrive in order. One per
     * codec, pointed at each call's channel, so calls allocate nothing.
     */
    private static final class SequentialSink implements SliceSink {
        private WritableByteChannel out;

        SequentialSink to(WritableByteChannel channel) {
            out = channel;
            return this;
        }

        @Override
        public void write(long position, ByteBuffer slice) throws IOException {
            while (slice.hasRemaining()) {
                out.write(slice);
            }
        }
    }

    private static void checkSources(XorSetLayout layout, int target, PayloadSource[] data, PayloadSource[] parity) {
        int n = layout.setSize();
        layout.payloadSize(target); // range check with the layout's message
        if (data.length != n || (parity != null && parity.length != n)) {
            throw new IllegalArgumentException("sources do not match set size: setSize=" + n + " data="
                    + data.length + " parity=" + (parity == null ? "none" : parity.length));
        }
        for (int m = 0; m < n; m++) {
            if (m == target) {
                continue;
            }
            checkSize("data", m, data[m], layout.payloadSize(m));
            if (parity != null) {
                checkSize("parity", m, parity[m], layout.chunkSize());
            }
        }
    }

    private static void checkSize(String kind, int member, PayloadSource source, long expected) {
        if (source == null) {
            throw new IllegalArgumentException("missing source: kind=" + kind + " member=" + member);
        }
        if (source.size() != expected) {
            throw new IllegalArgumentException("source size differs from layout: kind=" + kind + " member=" + member
                    + " layoutSize=" + expected + " sourceSize=" + source.size());
        }
    }
}
