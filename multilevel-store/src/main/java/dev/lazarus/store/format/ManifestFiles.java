package dev.lazarus.store.format;

import dev.lazarus.store.CorruptCheckpointException;
import dev.lazarus.store.files.SecureFiles;
import dev.lazarus.store.files.UnsafePathException;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Reads manifests with their size bounded before reading, and publishes them atomically. */
public final class ManifestFiles {

    private ManifestFiles() {
    }

    /**
     * @return the decoded manifest
     * @throws CorruptCheckpointException if it is missing, a symbolic link (never followed), oversized or fails
     *                                    validation; the message names the file
     */
    public static RankManifest read(Path file) throws IOException {
        String what = file.toString();
        byte[] bytes;
        try {
            bytes = SecureFiles.readBounded(file, ManifestLayout.MAX_MANIFEST_BYTES);
        } catch (NoSuchFileException e) {
            throw new CorruptCheckpointException(what + ": missing");
        } catch (UnsafePathException e) {
            throw new CorruptCheckpointException(e.getMessage());
        }
        return RankManifest.decode(bytes, what);
    }

    /**
     * Writes the manifest atomically (temporary file, fsync, rename, fsync of the directory), mode 0600; a link at
     * its name or its temporary name is refused ({@link UnsafePathException}), never followed.
     *
     * @return the manifest file's size in bytes
     */
    public static long publish(Path file, RankManifest manifest) throws IOException {
        byte[] bytes = manifest.encode();
        SecureFiles.writeAtomically(file, bytes);
        return bytes.length;
    }
}
