package dev.lazarus.store.level.xor;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A payload stored in a region of a file, read with positional reads so the channel's position is left alone and
 * several sources may share one channel (a parity file's chunk after its header, say). The channel stays the
 * caller's to close.
 *
 * <p>{@link FileChannel} reads into a {@link ByteBuffer}; views of the last two destination segments are kept (a
 * codec's accumulator and scratch), so steady-state reads allocate nothing. Destination segments must be native or
 * {@code byte[]} backed and at most 2 GiB.
 */
public final class FileChannelPayloadSource implements PayloadSource {
    private final FileChannel channel;
    private final long fileOffset;
    private final long size;
    private final ByteBufferViews views = new ByteBufferViews();

    /**
     * @param channel    a channel open for reading
     * @param fileOffset where the payload starts in the file
     * @param size       the payload size in bytes
     * @throws IllegalArgumentException if {@code fileOffset} or {@code size} is negative
     */
    public FileChannelPayloadSource(FileChannel channel, long fileOffset, long size) {
        if (fileOffset < 0 || size < 0) {
            throw new IllegalArgumentException("negative file region: fileOffset=" + fileOffset + " size=" + size);
        }
        this.channel = channel;
        this.fileOffset = fileOffset;
        this.size = size;
    }

    /**
     * A payload that is the whole file, as long as the file is at this moment.
     *
     * @throws IOException if the channel cannot tell its size
     */
    public FileChannelPayloadSource(FileChannel channel) throws IOException {
        this(channel, 0, channel.size());
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public void read(long position, MemorySegment dst, long dstOffset, long length) throws IOException {
        long real = PayloadSources.realLength(size, position, length);
        if (real > 0) {
            ByteBuffer buffer = views.viewOf(dst);
            buffer.limit(Math.toIntExact(dstOffset + real)).position((int) dstOffset);
            long at = fileOffset + position;
            while (buffer.hasRemaining()) {
                int n = channel.read(buffer, at);
                if (n < 0) {
                    throw new EOFException("file ends inside payload: fileOffset=" + fileOffset + " size=" + size
                            + " endsAt=" + (at - fileOffset));
                }
                at += n;
            }
        }
        XorKernel.zero(dst, dstOffset + real, length - real);
    }

    @Override
    public String toString() {
        return "FileChannelPayloadSource[fileOffset=" + fileOffset + " size=" + size + "]";
    }
}
