package dev.lazarus.store.drain;

import dev.lazarus.store.CorruptCheckpointException;
import dev.lazarus.store.format.DataFileReader;
import dev.lazarus.store.format.ManifestFiles;
import dev.lazarus.store.format.RankManifest;
import dev.lazarus.store.incremental.ChainRestorer;
import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.store.level.SecureFiles;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Copies one rank's checkpoint of a version from one level to another, with every version of its chain the target
 * lacks, so that the target can restore it alone. Every chunk is checked against its CRC32C on the way, so damage on
 * the source is reported rather than copied; the manifest is published last, so an interrupted copy (a full file
 * system, say) leaves no version that looks usable.
 */
public final class VersionCopier {

    private VersionCopier() {
    }

    /**
     * @return bytes written to the target (data and manifests); 0 if it already held the whole chain
     * @throws CorruptCheckpointException if the source chain is damaged
     * @throws IOException                if the target cannot be written; partial files are removed
     */
    public static long copy(CheckpointDirectory source, CheckpointDirectory target, long version, int rank)
            throws IOException {
        List<RankManifest> chain = ChainRestorer.chain(source, version, rank, 0);
        long written = 0;
        for (RankManifest manifest : chain) {
            if (present(target, manifest, rank)) {
                continue;
            }
            written += copyOne(source, target, manifest, rank);
        }
        return written;
    }

    private static boolean present(CheckpointDirectory target, RankManifest manifest, int rank) {
        try {
            RankManifest there = ManifestFiles.read(target.manifestFile(manifest.version(), rank));
            return there.job().equals(manifest.job()) && there.dataLength() == manifest.dataLength()
                    && Files.size(target.dataFile(manifest.version(), rank)) == manifest.dataLength();
        } catch (IOException e) {
            return false;
        }
    }

    private static long copyOne(CheckpointDirectory source, CheckpointDirectory target, RankManifest manifest,
                                int rank) throws IOException {
        long version = manifest.version();
        target.createVersion(version);
        Path data = target.dataFile(version, rank);
        try (DataFileReader in = new DataFileReader(source.dataFile(version, rank), manifest);
             FileChannel out = SecureFiles.openForWrite(data)) {
            for (int c = 0; c < manifest.chunks().size(); c++) {
                MemorySegment chunk = in.readChecked(c);
                ByteBuffer buffer = chunk.asByteBuffer();
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
            }
            out.force(false);
            ManifestFiles.publish(target.manifestFile(version, rank), manifest);
        } catch (IOException e) {
            Files.deleteIfExists(data);
            Files.deleteIfExists(target.manifestFile(version, rank).resolveSibling("rank-" + rank
                    + ".manifest.tmp"));
            throw e;
        }
        return manifest.dataLength() + Files.size(target.manifestFile(version, rank));
    }
}
