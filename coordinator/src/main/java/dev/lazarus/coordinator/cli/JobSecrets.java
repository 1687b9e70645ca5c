package dev.lazarus.coordinator.cli;

import dev.lazarus.daemon.l2.wire.JobSecret;
import dev.lazarus.store.files.SecureFiles;

import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;

/**
 * Where {@code lazarus run} keeps the per-job secrets its jobs' L2 services authenticate with: a directory every node
 * of the job can read, like the user's home on a cluster, mode 0700, one new file per launch, mode 0600.
 */
final class JobSecrets {
    static final String DIR_ENV = "LAZARUS_SECRET_DIR";

    private JobSecrets() {
    }

    /** @return a new, unused path for a launch of the job (its id, else the application's name) */
    static Path newPath(Map<String, String> environment, String jobId, String application) {
        String dir = environment.get(DIR_ENV);
        Path root = dir != null && !dir.isBlank() ? Path.of(dir)
                : Path.of(environment.getOrDefault("HOME", System.getProperty("user.home")), ".lazarus", "secrets");
        byte[] nonce = new byte[8];
        new SecureRandom().nextBytes(nonce);
        String job = (jobId != null ? jobId : application).replaceAll("[^A-Za-z0-9_.-]", "_");
        return root.toAbsolutePath().resolve(job + "-" + HexFormat.of().formatHex(nonce) + ".secret");
    }

    /** Creates the secret file with fresh random bytes, its directory 0700 and the file 0600. */
    static void create(Path file) throws IOException {
        SecureFiles.createDirectories(file.getParent());
        JobSecret.create(file);
    }
}
