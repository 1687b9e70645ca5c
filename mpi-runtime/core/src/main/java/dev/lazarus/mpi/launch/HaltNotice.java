package dev.lazarus.mpi.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

/**
 * The coordinator's request that the ranks of a launch stop cleanly after their next complete checkpoint ({@code
 * lazarus halt}): an empty file, {@code halt}, in the launch's status directory ({@value ExitStatusFiles#ENV}). The
 * ranks look for it only after a checkpoint, and agree on it collectively, so they all stop after the same version.
 */
public final class HaltNotice {
    /** The file name in the status directory. */
    public static final String FILE = "halt";

    private HaltNotice() {
    }

    /** Posts the request in {@code statusDir}, readable by the owner only; posting it twice is harmless. */
    public static void post(Path statusDir) throws IOException {
        Path file = statusDir.resolve(FILE);
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
    }

    /** @return whether the launch {@code environment} belongs to was asked to halt (no status directory: never) */
    public static boolean posted(Map<String, String> environment) {
        String dir = environment.get(ExitStatusFiles.ENV);
        return dir != null && !dir.isBlank()
                && Files.isRegularFile(Path.of(dir).resolve(FILE), LinkOption.NOFOLLOW_LINKS);
    }
}
