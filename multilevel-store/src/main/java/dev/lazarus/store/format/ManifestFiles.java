package dev.lazarus.store.format;

import dev.lazarus.store.CorruptCheckpointException;
import dev.lazarus.store.level.SecureFiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Reads manifests with their size bounded before reading, and publishes them atomically. */
public final class ManifestFiles {

    private ManifestFiles() {
    }

    /**
     * @return the decoded manifest
     * @throws CorruptCheckpointException if it is missing, oversized or fails validation; the message names the file
     */
    public static RankManifest read(Path file) throws IOException {
        String what = file.toString();
        long size;
        try {
            size = Files.size(file);
        } catch (NoSuchFileException e) {
            throw new CorruptCheckpointException(what + ": missing");
        }
        if (size > ManifestLayout.MAX_MANIFEST_BYTES) {
            throw new CorruptCheckpointException(what + ": size=" + size + " exceeds "
                    + ManifestLayout.MAX_MANIFEST_BYTES);
        }
        return RankManifest.decode(Files.readAllBytes(file), what);
    }

    /**
     * Writes the manifest atomically (temporary file, fsync, rename, fsync of the directory), mode 0600.
     *
     * @return the manifest file's size in bytes
     */
    public static long publish(Path file, RankManifest manifest) throws IOException {
        byte[] bytes = manifest.encode();
        SecureFiles.writeAtomically(file, bytes);
        return bytes.length;
    }
}
