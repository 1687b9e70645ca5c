package dev.lazarus.coordinator.state;

import dev.lazarus.store.files.SecureFiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A request that a job halt ({@code lazarus halt}), kept beside the job's state as {@code halt.json} (0600, written
 * atomically) where the job's {@code lazarus run} looks for it while the job runs. It is not a map of the state: it
 * is consumed when the job halts, and withdrawn when the job ends first or with {@code lazarus halt --cancel}.
 *
 * @param now             kill the job at once instead of stopping it after its next complete checkpoint
 * @param notBeforeMillis when the request takes effect, epoch milliseconds ({@code --after})
 * @param requestedMillis when it was made, epoch milliseconds
 */
public record HaltRequest(boolean now, long notBeforeMillis, long requestedMillis) {
    /** The file name in the job's state directory. */
    public static final String FILE = "halt.json";
    private static final int MAX_BYTES = 4096;

    /** @return whether the request has taken effect at {@code nowMillis} */
    public boolean due(long nowMillis) {
        return nowMillis >= notBeforeMillis;
    }

    /** Posts this request for the job of {@code files}, replacing an earlier one. */
    public void post(StateFiles files) throws IOException {
        SecureFiles.createDirectories(files.jobDirectory());
        SecureFiles.writeAtomically(file(files), StateJson.write(this).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @return the job's pending request, or empty when there is none
     * @throws IOException one line for a file that is not a request (a link, too large, not the record)
     */
    public static Optional<HaltRequest> read(StateFiles files) throws IOException {
        Path file = file(files);
        try {
            String json = new String(SecureFiles.readBounded(file, MAX_BYTES), StandardCharsets.UTF_8);
            return Optional.of(StateJson.read(json, HaltRequest.class));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": " + e.getMessage());
        }
    }

    /** Removes the job's pending request; @return whether there was one */
    public static boolean withdraw(StateFiles files) throws IOException {
        Path file = file(files);
        SecureFiles.refuseLink(file);
        return Files.deleteIfExists(file);
    }

    private static Path file(StateFiles files) {
        return files.jobDirectory().resolve(FILE);
    }
}
