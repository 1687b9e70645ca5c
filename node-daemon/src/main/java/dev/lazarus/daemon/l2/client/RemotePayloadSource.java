package dev.lazarus.daemon.l2.client;

import dev.lazarus.store.level.xor.ByteBufferViews;
import dev.lazarus.store.level.xor.PayloadSource;
import dev.lazarus.store.level.xor.PayloadSources;
import dev.lazarus.store.level.xor.XorKernel;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * Another member's payload or parity as a {@link PayloadSource}, so the store's {@code XorCodec} encodes and rebuilds
 * over the network unchanged. The codec reads each chunk front to back in slices, so reads are served from a stream:
 * one request covers a window of up to {@code windowBytes} (never past the chunk, the worker's column range or the
 * payload), and while the codec
 * XORs one slice, the peer's kernel is already sending the next ones. A read elsewhere drains the window and asks
 * again, which costs at most one window.
 *
 * <p>The peer and the codec share the connection with the member's other source (payload or parity); the codec never
 * reads both of one member in the same column. Views of the last two destination segments (the codec's accumulator
 * and scratch) are kept, so steady-state reads allocate nothing. Destination segments must be native or {@code byte[]}
 * backed and at most 2 GiB.
 */
public final class RemotePayloadSource implements PayloadSource {
    private final PeerConnection peer;
    private final byte type;
    private final long version;
    private final long size;
    private final long chunkSize;
    private final long windowBytes;
    private final long columnEnd;
    private final ByteBufferViews views = new ByteBufferViews();

    /**
     * @param type        {@code WireLayout.PAYLOAD_RANGE} or {@code PARITY_RANGE}
     * @param size        the payload or parity size, from the layout
     * @param chunkSize   the layout's chunk size; windows stop at chunk boundaries
     * @param windowBytes the most one request asks for
     * @param columnEnd   where the reader's share of each chunk ends ({@code ColumnRange.end()}): windows that start
     *                    before it stop there, so a parallel worker never fetches its neighbour's bytes
     */
    public RemotePayloadSource(PeerConnection peer, byte type, long version, long size, long chunkSize,
                               long windowBytes, long columnEnd) {
        if (size < 0 || chunkSize < 0 || windowBytes <= 0 || columnEnd < 0 || columnEnd > chunkSize) {
            throw new IllegalArgumentException("remote source invalid: size=" + size + " chunkSize=" + chunkSize
                    + " windowBytes=" + windowBytes + " columnEnd=" + columnEnd);
        }
        this.peer = peer;
        this.type = type;
        this.version = version;
        this.size = size;
        this.chunkSize = chunkSize;
        this.windowBytes = windowBytes;
        this.columnEnd = columnEnd;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public void read(long position, MemorySegment dst, long dstOffset, long length) throws IOException {
        long real = PayloadSources.realLength(size, position, length);
        if (real > 0) {
            ByteBuffer view = views.viewOf(dst);
            long done = 0;
            while (done < real) {
                long at = position + done;
                if (!peer.streaming(type, version, at)) {
                    peer.openStream(type, version, at, window(at, real - done));
                }
                long n = Math.min(real - done, peer.streamRemaining());
                view.limit(Math.toIntExact(dstOffset + done + n)).position((int) (dstOffset + done));
                peer.readStream(view);
                done += n;
            }
        }
        XorKernel.zero(dst, dstOffset + real, length - real);
    }

    /**
     * @return how much to ask for at {@code at}: at least {@code need}, else up to a window, the end of the column
     *         range or of the chunk
     */
    private long window(long at, long need) {
        long stop = size;
        if (chunkSize > 0) {
            long chunkStart = at / chunkSize * chunkSize;
            stop = Math.min(size, chunkStart + (at - chunkStart < columnEnd ? columnEnd : chunkSize));
        }
        return Math.max(need, Math.min(windowBytes, stop - at));
    }

    @Override
    public String toString() {
        return "RemotePayloadSource[peer=" + peer.peer() + " type=" + type + " version=" + version + " size=" + size
                + "]";
    }
}
