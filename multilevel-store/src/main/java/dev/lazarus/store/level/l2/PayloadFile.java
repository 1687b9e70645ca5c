package dev.lazarus.store.level.l2;

import dev.lazarus.store.format.RankManifest;

/**
 * One file of a node's payload: a rank's manifest or data file of one version.
 *
 * @param rank   the rank, which with the kind and version names the file; never a name read from anywhere
 * @param kind   manifest or data
 * @param size   bytes
 * @param crc32c CRC32C of the whole file, which a rebuilt file must match before it is published
 */
public record PayloadFile(int rank, FileKind kind, long size, int crc32c) {

    public PayloadFile {
        if (rank < 0 || rank >= RankManifest.MAX_WORLD || kind == null || size < 0) {
            throw new IllegalArgumentException("payload file invalid: rank=" + rank + " kind=" + kind
                    + " size=" + size);
        }
    }

    @Override
    public String toString() {
        return "rank-" + rank + "." + (kind == FileKind.MANIFEST ? "manifest" : "data");
    }
}
