package dev.lazarus.mpi.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.OptionalInt;

/**
 * One small file per rank holding the rank's exit status, written by {@link RankMain} into the directory named by
 * the environment variable {@value #ENV}. The launcher reads them because MPJ Express does not pass the ranks' exit
 * status on, and because a missing file tells it which rank died before finishing.
 */
public final class ExitStatusFiles {
    /** Environment variable naming the status directory. */
    public static final String ENV = "LAZARUS_STATUS_DIR";
    private static final int MAX_BYTES = 16;

    private ExitStatusFiles() {
    }

    /** The file for {@code rank} in {@code dir}. */
    public static Path file(Path dir, int rank) {
        return dir.resolve("rank-" + rank + ".status");
    }

    /** Writes {@code status} for {@code rank} atomically, readable by the owner only. */
    public static void write(Path dir, int rank, int status) throws IOException {
        Path tmp = Files.createTempFile(dir, "rank-" + rank, ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(tmp, Integer.toString(status), StandardCharsets.US_ASCII);
        Files.move(tmp, file(dir, rank), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** The file {@code rank} creates once it runs, so the launcher can tell a job that never started from a crash. */
    public static Path startedFile(Path dir, int rank) {
        return dir.resolve("rank-" + rank + ".started");
    }

    /** Records that {@code rank} started (an empty file, readable by the owner only). */
    public static void markStarted(Path dir, int rank) throws IOException {
        Files.deleteIfExists(startedFile(dir, rank));
        Files.createFile(startedFile(dir, rank),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    }

    /** The status {@code rank} recorded, or empty if it recorded none (or the file is not a number). */
    public static OptionalInt read(Path dir, int rank) {
        Path file = file(dir, rank);
        try {
            if (!Files.isRegularFile(file) || Files.size(file) > MAX_BYTES) {
                return OptionalInt.empty();
            }
            return OptionalInt.of(Integer.parseInt(Files.readString(file, StandardCharsets.US_ASCII).trim()));
        } catch (IOException | NumberFormatException e) {
            return OptionalInt.empty();
        }
    }
}
