package dev.lazarus.easycrash.heap;

import dev.lazarus.store.files.SecureFiles;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * An exclusive lock on one rank's NVM state ({@code rank-<r>.lock} beside its heap), held from attaching the heap
 * until it is closed. Two writers on one heap would compute on garbage, so a relaunch while a rank of an earlier
 * launch still runs (an orphan of a killed {@code mpirun}, say) is refused instead. The kernel drops the lock when its
 * holder dies, so a crashed rank never leaves it behind; the empty lock file stays.
 */
public final class RankLock implements AutoCloseable {
    private final FileChannel channel; // its lock goes when it closes

    private RankLock(FileChannel channel) {
        this.channel = channel;
    }

    /**
     * Takes the lock without waiting. The lock file is created 0600, never through a link.
     *
     * @throws NvmStateInUseException when another process, or another rank thread of this JVM, holds it
     * @throws dev.lazarus.store.files.UnsafePathException when a symbolic link sits at the lock file's name
     */
    public static RankLock acquire(Path file) throws IOException {
        FileChannel channel = SecureFiles.open(file, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(
                "rw-------")));
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException heldInThisJvm) {
            lock = null;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        if (lock == null) {
            channel.close();
            throw new NvmStateInUseException("NVM state " + file.getParent() + " is in use by a running rank of an"
                    + " earlier launch of this job (" + file.getFileName() + " is locked): wait for it to end or"
                    + " stop it, then relaunch");
        }
        return new RankLock(channel);
    }

    /** Releases the lock; idempotent. */
    @Override
    public void close() {
        try {
            channel.close(); // releases the lock with it
        } catch (IOException e) {
            // Closing a lock file's channel cannot lose data; the lock goes with the process at the latest.
        }
    }

    /** Another live rank holds a rank's NVM state. */
    public static final class NvmStateInUseException extends IllegalStateException {
        public NvmStateInUseException(String message) {
            super(message);
        }
    }
}
