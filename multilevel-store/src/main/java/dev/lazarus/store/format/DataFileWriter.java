package dev.lazarus.store.format;

import dev.lazarus.store.files.SecureFiles;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.CRC32C;

/**
 * Appends chunks of variables to a rank's data file, checksumming each, and records them in a {@link ChunkTable}.
 * Native memory goes to the file without a copy; heap memory is staged through one reused direct buffer. A writer
 * for a slower level may write with O_DIRECT instead ({@link DirectFileOutput}), where the file system takes it; one
 * on a RAM disk may overwrite a spare file in place ({@link #overwritingSpare}).
 */
public final class DataFileWriter implements AutoCloseable {
    private final Path file;
    /** Ordinary writes, or null when {@link #direct} is used. */
    private final FileChannel channel;
    private final DirectFileOutput direct;
    private final ChunkTable chunks = new ChunkTable();
    private final CRC32C crc = new CRC32C();
    private final StagingBuffer staging = new StagingBuffer();
    /** Whether the file was a spare, overwritten in place: cut to what was written before it is forced. */
    private final boolean overwrites;
    private long position;

    /** Creates (0600) or truncates the data file; a link at its name is refused, never followed. */
    public DataFileWriter(Path file) throws IOException {
        this(file, false);
    }

    /**
     * Creates (0600) or truncates the data file; a link at its name is refused, never followed.
     *
     * @param tryDirect write with O_DIRECT if the file system takes it (see {@link #direct()}), else as usual
     */
    public DataFileWriter(Path file, boolean tryDirect) throws IOException {
        this.file = file;
        this.direct = tryDirect ? DirectFileOutput.open(file) : null;
        this.channel = direct == null ? SecureFiles.openForWrite(file) : null;
        this.overwrites = false;
    }

    private DataFileWriter(Path file, FileChannel overwritten) {
        this.file = file;
        this.direct = null;
        this.channel = overwritten;
        this.overwrites = true;
    }

    /**
     * A writer of {@code file} that takes over {@code spare}, a data file no longer needed, when there is one and
     * nothing else has it open (not even a reader that opened it under its version's name before it was pruned):
     * the spare is renamed to {@code file} and overwritten in place, so its pages are reused instead of allocated
     * and zeroed anew. Otherwise the spare, if any, is deleted and {@code file} created as by the constructor.
     * A link at either name is refused, never followed.
     */
    public static DataFileWriter overwritingSpare(Path file, Path spare) throws IOException {
        if (Files.isRegularFile(spare, LinkOption.NOFOLLOW_LINKS) && SecureFiles.unopenedElsewhere(spare)) {
            SecureFiles.refuseLink(file);
            Files.move(spare, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return new DataFileWriter(file, SecureFiles.openExistingForWrite(file));
        }
        Files.deleteIfExists(spare);
        return new DataFileWriter(file);
    }

    /** @return whether this writer bypasses the page cache (O_DIRECT) */
    public boolean direct() {
        return direct != null;
    }

    /**
     * Appends {@code length} bytes of a variable's memory as one chunk.
     *
     * @param variable index of the variable in the manifest
     * @param memory   the variable's memory
     * @param offset   first byte, within the variable
     * @param length   1 to {@link ManifestLayout#MAX_CHUNK_BYTES} bytes
     */
    public void append(int variable, MemorySegment memory, long offset, int length) throws IOException {
        if (length < 1 || length > ManifestLayout.MAX_CHUNK_BYTES) {
            throw new IllegalArgumentException("chunk length=" + length + " must be 1 to "
                    + ManifestLayout.MAX_CHUNK_BYTES);
        }
        appendChunk(variable, offset, memory.asSlice(offset, length));
    }

    /**
     * Appends bytes that belong at {@code variableOffset} of a variable as one chunk: a chunk composed from other
     * checkpoints' chunks rather than taken from the variable's memory.
     *
     * @param bytes 1 to {@link ManifestLayout#MAX_CHUNK_BYTES} bytes
     */
    public void appendChunk(int variable, long variableOffset, MemorySegment bytes) throws IOException {
        if (bytes.byteSize() < 1 || bytes.byteSize() > ManifestLayout.MAX_CHUNK_BYTES) {
            throw new IllegalArgumentException("chunk length=" + bytes.byteSize() + " must be 1 to "
                    + ManifestLayout.MAX_CHUNK_BYTES);
        }
        int length = (int) bytes.byteSize();
        MemorySegment slice = bytes;
        if (!slice.isNative()) {
            MemorySegment staged = staging.slice(length);
            MemorySegment.copy(slice, 0, staged, 0, length);
            slice = staged;
        }
        ByteBuffer buffer = slice.asByteBuffer();
        crc.reset();
        crc.update(buffer);
        buffer.rewind();
        try {
            if (direct != null) {
                direct.write(buffer);
            } else {
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
            }
        } catch (IOException e) {
            throw failed(e);
        }
        chunks.add(variable, variableOffset, length, position, (int) crc.getValue());
        position += length;
    }

    /** @return the chunks written so far */
    public ChunkTable chunks() {
        return chunks;
    }

    /** Makes the data durable; call before the manifest is published. */
    public void force() throws IOException {
        try {
            if (direct != null) {
                direct.finish();
            } else {
                if (overwrites) {
                    channel.truncate(position); // the spare may have been longer
                }
                channel.force(false);
            }
        } catch (IOException e) {
            throw failed(e);
        }
    }

    /** A failed write says which file: "No space left on device" alone does not tell a user which level is full. */
    private IOException failed(IOException e) {
        return new IOException(file + ": " + e.getMessage(), e);
    }

    @Override
    public void close() throws IOException {
        try {
            if (direct != null) {
                direct.close();
            } else {
                channel.close();
            }
        } finally {
            staging.close();
        }
    }
}
