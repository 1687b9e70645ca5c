package dev.lazarus.store.level;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * File operations every level uses: directories created 0700, files 0600, and the atomic publish of small files
 * (temporary file, fsync, rename, fsync of the directory) that makes a manifest appear whole or not at all.
 */
public final class SecureFiles {
    private static final FileAttribute<Set<PosixFilePermission>> FILE_MODE =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
    private static final FileAttribute<Set<PosixFilePermission>> DIRECTORY_MODE =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));

    private SecureFiles() {
    }

    /** Creates a directory and its missing parents, each new one 0700. Existing directories are left as they are. */
    public static Path createDirectories(Path directory) throws IOException {
        Path absolute = directory.toAbsolutePath();
        Path parent = absolute.getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            createDirectories(parent);
        }
        try {
            Files.createDirectory(absolute, DIRECTORY_MODE);
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(absolute)) {
                throw e;
            }
        }
        return directory;
    }

    /** Opens a file for writing from the start, created 0600 if new, truncated if not. */
    public static FileChannel openForWrite(Path file) throws IOException {
        return FileChannel.open(file, EnumSet.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING), FILE_MODE);
    }

    /** Writes {@code bytes} to {@code target} atomically: a reader sees the old file, no file, or all of the new. */
    public static void writeAtomically(Path target, byte[] bytes) throws IOException {
        Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
        try (FileChannel channel = openForWrite(temporary)) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
        try {
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.deleteIfExists(temporary);
            throw e;
        }
        syncDirectory(target.toAbsolutePath().getParent());
    }

    /** fsyncs a directory so that a rename in it is durable. */
    public static void syncDirectory(Path directory) throws IOException {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }
}
