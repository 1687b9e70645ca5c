package dev.lazarus.store.files;

import dev.lazarus.store.CorruptCheckpointException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Set;
import com.sun.security.auth.module.UnixSystem;

/**
 * File operations every level and the persistent heap use, and the one place for the rules that keep the runtime's
 * writes inside the job's own directories: directories created 0700 and files 0600; a job's or version's directory
 * that is a symbolic link, not a directory, or owned by another user refused ({@link #createOwnDirectory},
 * {@link #checkOwnDirectory}); files opened with O_NOFOLLOW, so a link planted at a file's name fails the open
 * ({@link UnsafePathException}) instead of redirecting the write; and the atomic publish of small files (temporary
 * file, fsync, rename, fsync of the directory) that makes a manifest appear whole or not at all.
 */
public final class SecureFiles {
    private static final FileAttribute<Set<PosixFilePermission>> FILE_MODE =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
    private static final FileAttribute<Set<PosixFilePermission>> DIRECTORY_MODE =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
    private static final Set<OpenOption> WRITE = Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS);
    private static final Set<OpenOption> READ = Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);

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

    /**
     * Creates a directory of the runtime's own (a job's or a version's), 0700, with its missing parents; an existing
     * one must pass {@link #checkOwnDirectory}. The parents (the configured roots) are not checked: where they point
     * is the administrator's choice.
     *
     * @throws UnsafePathException if it exists as a link, a non-directory, or another user's directory
     */
    public static Path createOwnDirectory(Path directory) throws IOException {
        Path parent = directory.toAbsolutePath().getParent();
        if (parent != null) {
            createDirectories(parent);
        }
        try {
            Files.createDirectory(directory, DIRECTORY_MODE);
        } catch (FileAlreadyExistsException e) {
            checkOwnDirectory(directory);
        }
        return directory;
    }

    /**
     * Checks that a directory of the runtime's own, if it exists, may be used: it is a directory, not a symbolic
     * link to one, and it belongs to the user running this process.
     *
     * @return whether it exists
     * @throws UnsafePathException one line naming the directory and what is wrong with it
     */
    public static boolean checkOwnDirectory(Path directory) throws IOException {
        Map<String, Object> attributes;
        try {
            // One read: another rank of the node may delete the directory between two.
            attributes = Files.readAttributes(directory, "unix:uid,isDirectory,isSymbolicLink",
                    LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return false;
        }
        if ((Boolean) attributes.get("isSymbolicLink")) {
            throw link(directory);
        }
        if (!(Boolean) attributes.get("isDirectory")) {
            throw new UnsafePathException("refusing " + directory + ": it is not a directory");
        }
        int owner = (Integer) attributes.get("uid");
        long self = RunningUser.UID;
        if (owner != self) {
            throw new UnsafePathException("refusing " + directory + ": it is owned by uid " + owner
                    + ", not by this user (uid " + self + ")");
        }
        return true;
    }

    /** @throws UnsafePathException if {@code file} is a symbolic link (dangling or not) */
    public static void refuseLink(Path file) throws UnsafePathException {
        if (Files.isSymbolicLink(file)) {
            throw link(file);
        }
    }

    /** Opens a file for writing from the start, created 0600 if new, truncated if not; never through a link. */
    public static FileChannel openForWrite(Path file) throws IOException {
        return open(file, WRITE, FILE_MODE);
    }

    /**
     * Opens an existing file for writing without truncating it, so that its pages are overwritten rather than
     * allocated anew; never through a link.
     */
    public static FileChannel openExistingForWrite(Path file) throws IOException {
        return open(file, Set.of(StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS));
    }

    /**
     * @return whether no other open file description, in this process or another, refers to {@code file}, as far
     *         as Linux's leases tell (false where they cannot be taken: see {@link NativeFiles#unopenedElsewhere})
     */
    public static boolean unopenedElsewhere(Path file) {
        return NativeFiles.unopenedElsewhere(file);
    }

    /** Opens a file for reading; never through a link. */
    public static FileChannel openForRead(Path file) throws IOException {
        return open(file, READ);
    }

    /**
     * Opens {@code file} with {@code options}, which must hold {@link LinkOption#NOFOLLOW_LINKS}: a symbolic link at
     * its name fails the open (ELOOP), which is reported as {@link UnsafePathException}.
     */
    public static FileChannel open(Path file, Set<? extends OpenOption> options, FileAttribute<?>... attributes)
            throws IOException {
        if (!options.contains(LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalArgumentException("open of " + file + " must not follow links: options=" + options);
        }
        try {
            return FileChannel.open(file, options, attributes);
        } catch (IOException e) { // ELOOP comes as a plain IOException
            if (!(e instanceof NoSuchFileException) && Files.isSymbolicLink(file)) {
                throw link(file);
            }
            throw e;
        }
    }

    /**
     * Reads a whole file, its size bounded before anything is allocated; never through a link.
     *
     * @param max the most bytes the file may hold
     * @throws NoSuchFileException        if the file is missing
     * @throws CorruptCheckpointException if it holds more than {@code max} bytes; the message names the file
     */
    public static byte[] readBounded(Path file, int max) throws IOException {
        try (FileChannel channel = openForRead(file)) {
            long size = channel.size();
            if (size > max) {
                throw new CorruptCheckpointException(file + ": size=" + size + " exceeds " + max);
            }
            ByteBuffer buffer = ByteBuffer.allocate((int) size);
            while (buffer.hasRemaining()) {
                if (channel.read(buffer) < 0) {
                    throw new CorruptCheckpointException(file + ": shrank to " + buffer.position()
                            + " bytes while read, size=" + size);
                }
            }
            return buffer.array();
        }
    }

    /**
     * Creates {@code file} (0600; it must not exist, not even as a link) and reserves {@code bytes} for it, so that
     * writing into a mapping of it can never fault for want of space.
     *
     * @throws NoRoomException if the file system has no room (ENOSPC) or the user's quota none (EDQUOT); the file
     *                         is deleted again
     */
    public static void createReserved(Path file, long bytes) throws IOException {
        refuseLink(file);
        int error = NativeFiles.createAndReserve(file, bytes);
        if (error != 0) {
            Files.deleteIfExists(file);
            String reason = NativeFiles.strerror(error);
            if (error == NativeFiles.ENOSPC || error == NativeFiles.EDQUOT) {
                throw new NoRoomException(reason);
            }
            throw new IOException(file + ": cannot reserve " + bytes + " bytes: " + reason);
        }
    }

    /** The file system could not reserve a file's space; {@link #getMessage} is the C library's reason. */
    public static final class NoRoomException extends IOException {
        private static final long serialVersionUID = 1L;

        /** @param reason why, e.g. the C library's "No space left on device" */
        public NoRoomException(String reason) {
            super(reason);
        }
    }

    /** Writes {@code bytes} to {@code target} atomically: a reader sees the old file, no file, or all of the new. */
    public static void writeAtomically(Path target, byte[] bytes) throws IOException {
        Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
        FileChannel channel = openForWrite(temporary); // refuses a link at the temporary name
        try (channel) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        } catch (IOException e) {
            Files.deleteIfExists(temporary);
            // Which file: "No space left on device" alone does not tell a user which level is full.
            throw new IOException(temporary + ": " + e.getMessage(), e);
        }
        publish(temporary, target);
        syncDirectory(target.toAbsolutePath().getParent());
    }

    /**
     * Renames a complete file to its final name atomically, replacing a file there. A rename never follows a link,
     * but a link at the final name is refused all the same: someone planted it.
     */
    public static void publish(Path temporary, Path target) throws IOException {
        try {
            refuseLink(target);
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException | UnsafePathException e) {
            Files.deleteIfExists(temporary);
            throw e;
        }
    }

    /** fsyncs a directory so that a rename in it is durable. */
    public static void syncDirectory(Path directory) throws IOException {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    /**
     * Deletes a directory and everything under it; nothing when it does not exist. Symbolic links inside are removed,
     * never followed, so a link planted in a scratch directory cannot take files outside it along.
     */
    public static void deleteTree(Path directory) throws IOException {
        if (!Files.exists(directory, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(directory, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path visited, IOException e) throws IOException {
                if (e != null) {
                    throw e;
                }
                Files.deleteIfExists(visited);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private static UnsafePathException link(Path path) {
        return new UnsafePathException("refusing " + path + ": it is a symbolic link");
    }

    /** The user the ownership check compares with, looked up once. */
    private static final class RunningUser {
        static final long UID = new UnixSystem().getUid();
    }
}
