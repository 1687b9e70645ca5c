package dev.lazarus.store.level.l2;

import dev.lazarus.store.CorruptCheckpointException;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;

/**
 * What a node's L1 directory holds of L2 for one version, for reports such as {@code lazarus ckpt list}: no parity
 * (none encoded, or an encode that never finished, since the manifest is written last), a complete parity, or damage
 * with its reason.
 *
 * @param manifest the parity manifest if the parity is complete, else null
 * @param problem  why the parity is unusable (one line naming the file), else null
 */
public record ParityStatus(ParityManifest manifest, String problem) {
    /** The node holds no parity of the version. */
    public static final ParityStatus NONE = new ParityStatus(null, null);

    /** @throws IllegalArgumentException if both a manifest and a problem are given */
    public ParityStatus {
        if (manifest != null && problem != null) {
            throw new IllegalArgumentException("parity status has a manifest and a problem: " + problem);
        }
    }

    /** @return true if the node holds a complete parity of the version */
    public boolean complete() {
        return manifest != null;
    }

    /** @return true if the node holds a parity manifest of the version that is unusable */
    public boolean damaged() {
        return problem != null;
    }

    /**
     * Reads the version's parity manifest (its size bounded) and checks that it names this job and version and that
     * the parity beside it has the manifest's size. Damage is returned, never thrown.
     *
     * @param l1          the node's L1 directory of the job
     * @param checkParity also read the parity and check its CRC32C
     */
    public static ParityStatus read(CheckpointDirectory l1, long version, boolean checkParity) {
        Path file = ParityFiles.manifest(l1, version);
        if (Files.notExists(file, LinkOption.NOFOLLOW_LINKS)) {
            return NONE;
        }
        try {
            ParityManifest manifest = ParityManifest.read(file);
            if (!manifest.job().equals(l1.job()) || manifest.version() != version) {
                return new ParityStatus(null, file + ": names job=" + manifest.job() + " version="
                        + manifest.version() + ", expected job=" + l1.job() + " version=" + version);
            }
            String parityProblem = checkParity(ParityFiles.parity(l1, version), manifest, checkParity);
            return parityProblem == null ? new ParityStatus(manifest, null) : new ParityStatus(null, parityProblem);
        } catch (CorruptCheckpointException e) {
            return new ParityStatus(null, e.getMessage());
        } catch (IOException e) {
            return new ParityStatus(null, file + ": unreadable: " + e);
        }
    }

    /** @return what is wrong with the parity file, or null */
    private static String checkParity(Path parity, ParityManifest manifest, boolean checkCrc) throws IOException {
        long size;
        try {
            size = Files.size(parity);
        } catch (NoSuchFileException e) {
            return parity + ": missing";
        }
        if (size != manifest.paritySize()) {
            return parity + ": size=" + size + " but the manifest says " + manifest.paritySize();
        }
        return checkCrc && crc32c(parity) != manifest.parityCrc() ? parity + ": checksum mismatch" : null;
    }

    private static int crc32c(Path file) throws IOException {
        CRC32C crc = new CRC32C();
        try (InputStream in = new CheckedInputStream(Files.newInputStream(file), crc)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        return (int) crc.getValue();
    }
}
