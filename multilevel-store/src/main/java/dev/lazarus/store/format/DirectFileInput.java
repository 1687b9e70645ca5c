package dev.lazarus.store.format;

import dev.lazarus.store.files.SecureFiles;
import dev.lazarus.store.files.UnsafePathException;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import com.sun.nio.file.ExtendedOpenOption;

/**
 * A file read front to back with O_DIRECT, through one aligned window of {@link #WINDOW_BYTES}: the device's blocks
 * land in the window without the page cache, and callers copy their ranges out of it. For a restore from the PFS
 * that saves the kernel's copy into the page cache and its insertion of every page, which on a node whose ranks all
 * restore at once costs more CPU than the cores have (four 256 MiB reads from a virtio disk: 1.9 s of system time
 * buffered); the data was written with O_DIRECT ({@link DirectFileOutput}), so nothing cached is passed over.
 *
 * <p>Not every file system takes O_DIRECT: {@link #open} reads one block first and returns null where it fails, so
 * the caller falls back to ordinary reads.
 */
final class DirectFileInput implements AutoCloseable {
    /** Bytes per device read: large requests keep a disk streaming while the copy out of the window is short. */
    static final int WINDOW_BYTES = 16 << 20;

    private final FileChannel channel;
    private final Arena arena;
    private final MemorySegment window;
    private final long size;
    private long windowStart = -1;
    private long windowLength;

    private DirectFileInput(FileChannel channel, Arena arena, MemorySegment window, long size) {
        this.channel = channel;
        this.arena = arena;
        this.window = window;
        this.size = size;
    }

    /**
     * Opens {@code file} for O_DIRECT reads; a link at its name is refused, never followed.
     *
     * @return the input, or null if the file system refuses O_DIRECT
     * @throws NoSuchFileException  if the file is missing
     * @throws UnsafePathException  if its name is a link
     */
    static DirectFileInput open(Path file) throws IOException {
        FileChannel channel;
        try {
            channel = SecureFiles.open(file, Set.of(StandardOpenOption.READ, ExtendedOpenOption.DIRECT,
                    LinkOption.NOFOLLOW_LINKS));
        } catch (UnsafePathException | NoSuchFileException e) {
            throw e;
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
        Arena arena = Arena.ofConfined();
        try {
            long size = channel.size();
            MemorySegment window = arena.allocate(WINDOW_BYTES, DirectFileOutput.ALIGNMENT);
            // Some file systems accept the flag at open and refuse the I/O: find out before any data depends on it.
            channel.read(window.asSlice(0, DirectFileOutput.ALIGNMENT).asByteBuffer(), 0);
            return new DirectFileInput(channel, arena, window, size);
        } catch (IOException e) {
            channel.close();
            arena.close();
            return null;
        }
    }

    /** @return the file's length when it was opened */
    long size() {
        return size;
    }

    /**
     * Copies the file's bytes from {@code position} into the whole of {@code target}.
     *
     * @return false if the file ends first (the target then holds what there was)
     */
    boolean read(long position, MemorySegment target) throws IOException {
        long length = target.byteSize();
        long done = 0;
        while (done < length) {
            long at = position + done;
            if ((at < windowStart || at >= windowStart + windowLength) && !fill(at)) {
                return false;
            }
            long n = Math.min(length - done, windowStart + windowLength - at);
            MemorySegment.copy(window, at - windowStart, target, done, n);
            done += n;
        }
        return true;
    }

    /** Reads the window from the aligned block holding {@code at}; false if the file ends before {@code at}. */
    private boolean fill(long at) throws IOException {
        long start = at & -DirectFileOutput.ALIGNMENT;
        ByteBuffer buffer = window.asByteBuffer();
        long end = start;
        // O_DIRECT stops short only at the end of the file; a short read anywhere else would leave an unaligned
        // position, which the next read refuses (EINVAL), so it is never retried from there.
        while (buffer.hasRemaining() && end < size) {
            int n = channel.read(buffer, end);
            if (n <= 0) {
                break;
            }
            end += n;
            if (n % DirectFileOutput.ALIGNMENT != 0) {
                break;
            }
        }
        windowStart = start;
        windowLength = end - start;
        return at < end;
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
