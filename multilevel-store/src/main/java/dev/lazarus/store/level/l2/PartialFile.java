package dev.lazarus.store.level.l2;

import dev.lazarus.store.files.SecureFiles;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;

/**
 * A file written in one pass under its {@link ParityFiles#partial partial} name (mode 0600), with the CRC32C of what
 * was written, then either published under its final name by an atomic rename or discarded: a reader never sees a
 * half-written or unchecked file under the final name.
 *
 * <p>A file is written either front to back by one thread ({@link #write}, which allocates nothing) or in pieces at
 * any positions by several threads at once ({@link #writeAt}), never both.
 */
public final class PartialFile implements WritableByteChannel {
    private final Path target;
    private final Path partial;
    private final FileChannel channel;
    private final CRC32C crc = new CRC32C();
    private final PieceChecksums pieces = new PieceChecksums();
    private final AtomicLong piecesWritten = new AtomicLong();
    private long written;

    /** Creates (or truncates) the partial file of {@code target}, 0600; a link at its name is refused. */
    public PartialFile(Path target) throws IOException {
        this.target = target;
        this.partial = ParityFiles.partial(target);
        this.channel = SecureFiles.openForWrite(partial);
    }

    /** Writes all of {@code src} and folds it into the CRC. */
    @Override
    public int write(ByteBuffer src) throws IOException {
        int start = src.position();
        int limit = src.limit();
        while (src.hasRemaining()) {
            channel.write(src);
        }
        // Checksum the bytes just written, moving position and limit rather than slicing, which would allocate.
        src.position(start);
        crc.update(src);
        src.limit(limit);
        written += limit - start;
        return limit - start;
    }

    /**
     * Writes all of {@code src} at {@code position} and checksums it as one piece; safe to call from several threads
     * for disjoint pieces. The buffer's position ends at its limit.
     */
    public void writeAt(long position, ByteBuffer src) throws IOException {
        pieces.add(position, src);
        long length = src.remaining();
        for (long at = position; src.hasRemaining(); ) {
            at += channel.write(src, at);
        }
        piecesWritten.addAndGet(length);
    }

    /** @return bytes written so far */
    public long written() {
        return written + piecesWritten.get();
    }

    /**
     * @return CRC32C of the bytes written so far; for a file written in pieces, of the pieces joined in file order
     * @throws IllegalStateException if pieces were written and they leave a gap or overlap
     */
    public int crc32c() {
        return piecesWritten.get() == 0 ? (int) crc.getValue() : pieces.crc32c(written());
    }

    /** Flushes and closes the partial file, keeping it for {@link #publish} or {@link #discard}. */
    public void finish() throws IOException {
        if (channel.isOpen()) {
            channel.force(true);
            channel.close();
        }
    }

    /**
     * Finishes the file and renames it to its final name atomically, replacing any file there but refusing a link
     * ({@link SecureFiles#publish}).
     */
    public void publish() throws IOException {
        finish();
        SecureFiles.publish(partial, target);
    }

    /** Closes and deletes the partial file; never throws. */
    public void discard() {
        try {
            channel.close();
            Files.deleteIfExists(partial);
        } catch (IOException e) {
            // Best effort: a leftover partial name is never read as a checkpoint file.
        }
    }

    @Override
    public boolean isOpen() {
        return channel.isOpen();
    }

    /** Same as {@link #discard} if not yet published. */
    @Override
    public void close() {
        discard();
    }
}
