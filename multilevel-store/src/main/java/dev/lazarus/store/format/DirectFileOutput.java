package dev.lazarus.store.format;

import dev.lazarus.store.files.SecureFiles;
import dev.lazarus.store.files.UnsafePathException;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import com.sun.nio.file.ExtendedOpenOption;

/**
 * A file written front to back with O_DIRECT: bytes are gathered in one aligned native buffer and go to the device
 * from there in whole blocks, bypassing the page cache. For the drain to the PFS, that keeps the copy out of the
 * page cache, so no flusher thread later writes it back on the ranks' cores and no cached pages have to be
 * reclaimed; the drain thread's own (idle) I/O priority then applies to the writes themselves.
 *
 * <p>The last block is padded to the alignment when written and the file then truncated to its real length. Not
 * every file system takes O_DIRECT, or takes it at this alignment: {@link #open} tries one aligned write first and
 * returns null where it fails, so the caller falls back to ordinary writes.
 */
final class DirectFileOutput implements AutoCloseable {
    /** Bytes gathered per write: large enough for streaming, small enough to leave the caches mostly alone. */
    static final int BUFFER_BYTES = 4 << 20;
    /** The alignment O_DIRECT needs on Linux: the logical block size, which a page covers on every file system. */
    static final int ALIGNMENT = 4096;

    private final FileChannel channel;
    private final Arena arena;
    private final ByteBuffer buffer;
    private long flushed;

    private DirectFileOutput(FileChannel channel, Arena arena, ByteBuffer buffer) {
        this.channel = channel;
        this.arena = arena;
        this.buffer = buffer;
    }

    /**
     * Creates (0600) or truncates {@code file} for O_DIRECT writes; a link at its name is refused, never followed.
     *
     * @return the output, or null if the file system refuses O_DIRECT (the file may then exist, empty)
     */
    static DirectFileOutput open(Path file) throws IOException {
        // Created by the ordinary call first, so the mode is 0600 however the direct open behaves.
        SecureFiles.openForWrite(file).close();
        FileChannel channel;
        try {
            channel = SecureFiles.open(file, Set.of(StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT,
                    LinkOption.NOFOLLOW_LINKS));
        } catch (UnsafePathException e) {
            throw e; // a link planted since the file was created: not a file system without O_DIRECT
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
        Arena arena = Arena.ofShared();
        ByteBuffer buffer = arena.allocate(BUFFER_BYTES, ALIGNMENT).asByteBuffer();
        try {
            // Some file systems accept the flag at open and refuse the I/O: find out before any data depends on it.
            buffer.limit(ALIGNMENT);
            channel.write(buffer, 0);
            channel.truncate(0);
            buffer.clear();
            return new DirectFileOutput(channel, arena, buffer);
        } catch (IOException e) {
            channel.close();
            arena.close();
            return null;
        }
    }

    /** Appends all of {@code src}; its position ends at its limit. */
    void write(ByteBuffer src) throws IOException {
        while (src.hasRemaining()) {
            int n = Math.min(src.remaining(), buffer.remaining());
            buffer.put(buffer.position(), src, src.position(), n);
            buffer.position(buffer.position() + n);
            src.position(src.position() + n);
            if (!buffer.hasRemaining()) {
                flush(BUFFER_BYTES);
            }
        }
    }

    /** Writes what is gathered, the last block padded, cuts the file to its real length and makes it durable. */
    void finish() throws IOException {
        long length = flushed + buffer.position();
        flush((buffer.position() + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT);
        channel.truncate(length);
        channel.force(false);
    }

    /** Writes the buffer's first {@code length} bytes (a multiple of the alignment) at the end of the file. */
    private void flush(int length) throws IOException {
        buffer.position(0).limit(length);
        long at = flushed;
        while (buffer.hasRemaining()) {
            at += channel.write(buffer, at);
        }
        flushed = at;
        buffer.clear();
    }

    @Override
    public void close() throws IOException {
        try {
            channel.close();
        } finally {
            arena.close();
        }
    }
}
