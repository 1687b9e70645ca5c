package dev.lazarus.mpi.launch;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * What the coordinator tells the ranks of one launch about how to recover: a small properties file, {@code directive}
 * in the launch's status directory ({@value ExitStatusFiles#ENV}), written before the launch starts. Today it says
 * whether the ranks may resume from NVM ({@code nvm=rollback}: set NVM aside and restore the newest checkpoint, or
 * start from the beginning) and why. Without a directive the ranks decide as they always did; with one they still
 * make their own checks (a damaged heap is never resumed, whatever the directive).
 *
 * @param rollBack whether the ranks must not resume from NVM
 * @param reason   the coordinator's reason, for the ranks' log line
 */
public record LaunchDirective(boolean rollBack, String reason) {
    /** The file name in the status directory. */
    public static final String FILE = "directive";
    private static final int MAX_BYTES = 4096;

    /** The directive that changes nothing. */
    public static LaunchDirective none() {
        return new LaunchDirective(false, "");
    }

    /** Writes {@code directive} into {@code dir} atomically, readable by the owner only. */
    public static void write(Path dir, LaunchDirective directive) throws IOException {
        Path tmp = Files.createTempFile(dir, FILE, ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        String reason = directive.reason().replace('\n', ' ');
        Files.writeString(tmp, "nvm=" + (directive.rollBack() ? "rollback" : "auto") + "\nreason=" + reason + "\n",
                StandardCharsets.UTF_8);
        Files.move(tmp, dir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * The directive of the launch {@code environment} belongs to, or {@link #none()} when there is no status
     * directory or no directive in it.
     *
     * @throws IllegalArgumentException one line for a directive that is not one (too large, a link, an unknown value)
     */
    public static LaunchDirective of(Map<String, String> environment) {
        String dir = environment.get(ExitStatusFiles.ENV);
        if (dir == null || dir.isBlank()) {
            return none();
        }
        Path file = Path.of(dir).resolve(FILE);
        try {
            Optional<String> text = readBounded(file);
            if (text.isEmpty()) {
                return none();
            }
            Properties properties = new Properties();
            properties.load(new StringReader(text.get()));
            String nvm = properties.getProperty("nvm", "auto");
            if (!nvm.equals("auto") && !nvm.equals("rollback")) {
                throw new IllegalArgumentException("launch directive " + file + ": nvm=" + nvm
                        + " is neither auto nor rollback");
            }
            return new LaunchDirective(nvm.equals("rollback"), properties.getProperty("reason", ""));
        } catch (IOException e) {
            throw new IllegalArgumentException("launch directive " + file + ": " + e.getMessage());
        }
    }

    private static Optional<String> readBounded(Path file) throws IOException {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) || Files.size(file) > MAX_BYTES) {
            throw new IOException("not a regular file of at most " + MAX_BYTES + " bytes");
        }
        return Optional.of(Files.readString(file, StandardCharsets.UTF_8));
    }
}
