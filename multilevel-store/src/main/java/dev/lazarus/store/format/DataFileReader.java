package dev.lazarus.store.format;

import dev.lazarus.store.CorruptCheckpointException;
import dev.lazarus.store.files.SecureFiles;
import dev.lazarus.store.files.UnsafePathException;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * Reads the chunks of a rank's data file as its manifest lists them, checking each chunk's CRC32C. The file's length
 * must match the manifest's, so truncation is found before any chunk is read.
 */
public final class DataFileReader implements AutoCloseable {
    /** How a data file's bytes are read. */
    public enum Access {
        /** Through the page cache: a RAM disk's files are there already. */
        CACHED,
        /**
         * With O_DIRECT where the file system takes it, else through the page cache: for files written with
         * O_DIRECT, which are not cached, read once.
         */
        DIRECT
    }

    private final Path file;
    private final RankManifest manifest;
    private final FileChannel channel;
    private final DirectFileInput direct;
    private final CRC32C crc = new CRC32C();
    private final StagingBuffer staging = new StagingBuffer();

    /** Opens the data file that {@code manifest} describes; a link at its name is refused, never followed. */
    public DataFileReader(Path file, RankManifest manifest) throws IOException {
        this(file, manifest, Access.CACHED);
    }

    /**
     * Opens the data file that {@code manifest} describes, read as {@code access} says; a link at its name is
     * refused, never followed.
     */
    public DataFileReader(Path file, RankManifest manifest, Access access) throws IOException {
        this.file = file;
        this.manifest = manifest;
        try {
            this.direct = access == Access.DIRECT ? DirectFileInput.open(file) : null;
            this.channel = direct == null ? SecureFiles.openForRead(file) : null;
        } catch (NoSuchFileException e) {
            staging.close();
            throw new CorruptCheckpointException(file + ": missing");
        } catch (UnsafePathException e) {
            staging.close();
            throw new CorruptCheckpointException(e.getMessage());
        }
        long size = direct != null ? direct.size() : channel.size();
        if (size != manifest.dataLength()) {
            close();
            throw new CorruptCheckpointException(file + ": length=" + size + " but manifest says "
                    + manifest.dataLength());
        }
    }

    /** @return whether the file is read with O_DIRECT (asked for, and the file system takes it) */
    public boolean direct() {
        return direct != null;
    }

    /**
     * Reads chunk {@code chunk} into {@code target} at the chunk's offset within its variable and checks its CRC. On
     * a mismatch the target range holds the damaged bytes: the caller must not use the restore.
     */
    public void readInto(int chunk, MemorySegment target) throws IOException {
        ChunkTable chunks = manifest.chunks();
        int length = chunks.length(chunk);
        MemorySegment slice = target.asSlice(chunks.variableOffset(chunk), length);
        MemorySegment landing = slice.isNative() ? slice : staging.slice(length);
        read(chunk, landing);
        if (landing != slice) {
            MemorySegment.copy(landing, 0, slice, 0, length);
        }
    }

    /** Reads chunk {@code chunk} and checks its CRC, keeping nothing. */
    public void verify(int chunk) throws IOException {
        readChecked(chunk);
    }

    /**
     * Reads chunk {@code chunk} and checks its CRC.
     *
     * @return the chunk's bytes, valid until the next call on this reader
     */
    public MemorySegment readChecked(int chunk) throws IOException {
        MemorySegment landing = staging.slice(manifest.chunks().length(chunk));
        read(chunk, landing);
        return landing;
    }

    private void read(int chunk, MemorySegment landing) throws IOException {
        ChunkTable chunks = manifest.chunks();
        ByteBuffer buffer = landing.asByteBuffer();
        long position = chunks.dataOffset(chunk);
        if (direct != null) {
            if (!direct.read(position, landing)) {
                throw new CorruptCheckpointException(file + ": ends inside chunk " + chunk);
            }
        } else {
            while (buffer.hasRemaining()) {
                int n = channel.read(buffer, position);
                if (n < 0) {
                    throw new CorruptCheckpointException(file + ": ends inside chunk " + chunk);
                }
                position += n;
            }
            buffer.flip();
        }
        crc.reset();
        crc.update(buffer);
        if ((int) crc.getValue() != chunks.crc(chunk)) {
            throw new CorruptCheckpointException(file + ": chunk " + chunk + " (variable "
                    + manifest.variables().get(chunks.variable(chunk)).name() + " offset="
                    + chunks.variableOffset(chunk) + " length=" + chunks.length(chunk) + ") checksum mismatch");
        }
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
