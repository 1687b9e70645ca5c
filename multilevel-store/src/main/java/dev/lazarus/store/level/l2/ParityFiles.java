package dev.lazarus.store.level.l2;

import dev.lazarus.store.level.CheckpointDirectory;

import java.nio.file.Path;

/**
 * Where a member keeps its L2 files of a version: beside the rank files in the version's L1 directory, under fixed
 * names the catalog's {@code rank-N.*} patterns never match.
 *
 * <pre>
 *   root/job/v000000000042/
 *     rank-4.manifest rank-4.data rank-5.manifest rank-5.data    the node's payload, in this order
 *     l2-parity.xor                                              this member's parity chunk, 0600
 *     l2-parity.manifest                                         {@link ParityManifestLayout}, written last
 * </pre>
 */
public final class ParityFiles {
    public static final String PARITY = "l2-parity.xor";
    public static final String MANIFEST = "l2-parity.manifest";
    /** Suffix of files being rebuilt or encoded, renamed into place once complete and checked. */
    public static final String PARTIAL_SUFFIX = ".l2-partial";

    private ParityFiles() {
    }

    /** @return the parity file of a version */
    public static Path parity(CheckpointDirectory directory, long version) {
        return directory.versionDirectory(version).resolve(PARITY);
    }

    /** @return the parity manifest of a version */
    public static Path manifest(CheckpointDirectory directory, long version) {
        return directory.versionDirectory(version).resolve(MANIFEST);
    }

    /** @return the path of one payload file, from the validated version, rank and kind only */
    public static Path payloadFile(CheckpointDirectory directory, long version, PayloadFile file) {
        return file.kind() == FileKind.MANIFEST ? directory.manifestFile(version, file.rank())
                : directory.dataFile(version, file.rank());
    }

    /** @return where a file is written before it is complete and checked */
    public static Path partial(Path file) {
        return file.resolveSibling(file.getFileName() + PARTIAL_SUFFIX);
    }
}
