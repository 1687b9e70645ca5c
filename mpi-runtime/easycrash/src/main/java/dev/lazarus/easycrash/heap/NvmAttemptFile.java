package dev.lazarus.easycrash.heap;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.Set;

/**
 * The durable record of an NVM restart in progress ({@code rank-<r>.attempt} beside the heap), so that a restart that
 * throws, hangs or dies is never tried again on the same state (recovery invariant 3). A rank writes it when the job
 * resumes from NVM, marks it failed when the resumed run throws, and it goes with the heap when the run finishes or
 * the heap is set aside.
 *
 * <pre>
 *   lazarus-nvm-attempt 1
 *   resumed-at=12          the bookmarked iteration the attempt resumed at
 *   state=running|failed
 *   reason=...             failed only: one line, at most 400 characters
 * </pre>
 *
 * At the next attach, a failed attempt, or one that ended (killed, hung) without the bookmark moving past where it
 * resumed, makes the state unusable and the job rolls back; an attempt that made progress before it died may resume
 * again from its newer bookmark.
 */
public final class NvmAttemptFile {
    private static final String HEADER = "lazarus-nvm-attempt 1";
    private static final int MAX_BYTES = 1024;
    private static final int MAX_REASON = 400;

    /**
     * @param resumedAt the iteration the attempt resumed at
     * @param failed    whether the attempt threw
     * @param reason    why it failed (empty while running)
     */
    public record Attempt(int resumedAt, boolean failed, String reason) {
    }

    private NvmAttemptFile() {
    }

    /** Durably records that this rank resumes from NVM at {@code iteration}. */
    public static void begin(Path file, int iteration) throws IOException {
        write(file, HEADER + "\nresumed-at=" + iteration + "\nstate=running\n");
    }

    /** Durably records that the attempt that resumed at {@code iteration} failed, and why. */
    public static void fail(Path file, int iteration, String reason) throws IOException {
        String line = reason.replaceAll("[\\r\\n]+", " ");
        write(file, HEADER + "\nresumed-at=" + iteration + "\nstate=failed\nreason="
                + line.substring(0, Math.min(line.length(), MAX_REASON)) + "\n");
    }

    /**
     * @return the recorded attempt, or empty when there is none; a record that is a link, too large or malformed is
     *         read as a failed attempt, so that nothing resumes on state nobody can vouch for
     */
    public static Optional<Attempt> read(Path file) throws IOException {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.of(new Attempt(-1, true, file.getFileName() + " is not a regular file"));
        }
        byte[] bytes;
        try (SeekableByteChannel channel = Files.newByteChannel(file, StandardOpenOption.READ,
                LinkOption.NOFOLLOW_LINKS)) {
            if (channel.size() > MAX_BYTES) {
                return Optional.of(new Attempt(-1, true, file.getFileName() + " is larger than " + MAX_BYTES
                        + " bytes"));
            }
            ByteBuffer buffer = ByteBuffer.allocate((int) channel.size());
            while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
                // read to the end
            }
            bytes = buffer.array();
        }
        return Optional.of(parse(new String(bytes, StandardCharsets.UTF_8), file));
    }

    private static Attempt parse(String text, Path file) {
        String[] lines = text.split("\n");
        if (lines.length < 3 || !lines[0].equals(HEADER) || !lines[1].startsWith("resumed-at=")
                || !lines[2].startsWith("state=")) {
            return new Attempt(-1, true, file.getFileName() + " is malformed");
        }
        int resumedAt;
        try {
            resumedAt = Integer.parseInt(lines[1].substring("resumed-at=".length()));
        } catch (NumberFormatException e) {
            return new Attempt(-1, true, file.getFileName() + " is malformed");
        }
        boolean failed = !lines[2].equals("state=running");
        String reason = lines.length > 3 && lines[3].startsWith("reason=") ? lines[3].substring("reason=".length())
                : failed ? "unknown" : "";
        return new Attempt(resumedAt, failed, reason);
    }

    /** Removes the record; a missing one is fine. */
    public static void delete(Path file) throws IOException {
        Files.deleteIfExists(file);
    }

    /** Writes {@code text} to a 0600 temporary file, forces it, and renames it over {@code file}. */
    private static void write(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        try (FileChannel channel = FileChannel.open(tmp, Set.of(StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
            ByteBuffer buffer = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
