package dev.lazarus.store.drain;

import dev.lazarus.store.CorruptCheckpointException;
import dev.lazarus.store.format.DataFileReader;
import dev.lazarus.store.format.DataFileWriter;
import dev.lazarus.store.format.ManifestFiles;
import dev.lazarus.store.format.ManifestLayout;
import dev.lazarus.store.format.PageFilter;
import dev.lazarus.store.format.RankManifest;
import dev.lazarus.store.incremental.ChainRestorer;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Writes one rank's checkpoint of a version to another level as a single full checkpoint, composed from the
 * version's chain on the source: every block is taken from the newest chain member that holds it. The target then
 * restores the version alone, and a level that receives every Nth version receives about 1/N of the bytes, where
 * copying the chain would send every increment too (all of them, for solvers that rewrite their state each step).
 *
 * <p>Every source chunk is checked against its CRC32C before use, so damage is reported rather than composed; the
 * manifest is published last, so an interrupted write (a full file system, say) leaves no version that looks usable.
 */
public final class ChainComposer {

    private ChainComposer() {
    }

    /**
     * Composes with ordinary (page cache) writes.
     *
     * @see #composeFull(CheckpointDirectory, CheckpointDirectory, long, int, boolean)
     */
    public static long composeFull(CheckpointDirectory source, CheckpointDirectory target, long version, int rank)
            throws IOException {
        return composeFull(source, target, version, rank, false);
    }

    /**
     * @param direct write the data file with O_DIRECT where the target's file system takes it
     * @return bytes written to the target (data and manifest); 0 if it already held the version in full
     * @throws CorruptCheckpointException if the source chain is damaged or its chunks do not tile the variables
     * @throws IOException                if the target cannot be written; partial files are removed
     */
    public static long composeFull(CheckpointDirectory source, CheckpointDirectory target, long version, int rank,
                                   boolean direct) throws IOException {
        List<RankManifest> chain = ChainRestorer.chain(source, version, rank, 0);
        RankManifest newest = chain.getLast();
        if (presentInFull(target, newest, rank)) {
            return 0;
        }
        target.createVersion(version);
        Path data = target.dataFile(version, rank);
        List<DataFileReader> readers = new ArrayList<>();
        try (DataFileWriter out = new DataFileWriter(data, direct)) {
            for (RankManifest member : chain) {
                readers.add(new DataFileReader(source.dataFile(member.version(), rank), member));
            }
            for (int variable = 0; variable < newest.variables().size(); variable++) {
                composeVariable(chain, readers, variable, out);
            }
            out.force();
            // The composed checkpoint is as good as its links: all pages hashed if any link hashed them.
            RankManifest full = new RankManifest(newest.job(), rank, newest.worldSize(), version,
                    ManifestLayout.NO_PARENT, newest.blockSize(), newest.variables(), out.chunks(),
                    PageFilter.of(chain.stream().map(RankManifest::pageFilter).toList()), newest.unverified());
            return full.dataLength() + ManifestFiles.publish(target.manifestFile(version, rank), full);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(data);
            throw e;
        } finally {
            for (DataFileReader reader : readers) {
                reader.close();
            }
        }
    }

    /**
     * Composes several ranks' checkpoints of a version, one after the other.
     *
     * @return bytes written to the target
     * @throws IOException naming the rank whose files failed; the ranks before it stay on the target
     */
    public static long composeRanks(CheckpointDirectory source, CheckpointDirectory target, long version,
                                    List<Integer> ranks, boolean direct) throws IOException {
        long bytes = 0;
        for (int rank : ranks) {
            try {
                bytes += composeFull(source, target, version, rank, direct);
            } catch (IOException e) {
                throw new IOException("rank " + rank + ": " + e.getMessage(), e);
            }
        }
        return bytes;
    }

    /** Whether the target already holds the version as a full checkpoint whose data file has the stated length. */
    private static boolean presentInFull(CheckpointDirectory target, RankManifest newest, int rank) {
        try {
            RankManifest there = ManifestFiles.read(target.manifestFile(newest.version(), rank));
            return there.full() && there.job().equals(newest.job()) && there.variables().equals(newest.variables())
                    && Files.size(target.dataFile(newest.version(), rank)) == there.dataLength();
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Finds, per block of one variable, the newest chain member and chunk that hold it, then writes the variable as
     * runs of blocks that come from one source chunk.
     */
    private static void composeVariable(List<RankManifest> chain, List<DataFileReader> readers, int variable,
                                        DataFileWriter out) throws IOException {
        RankManifest newest = chain.getLast();
        long size = newest.variables().get(variable).byteSize();
        int blockSize = newest.blockSize();
        long blockCount = (size + blockSize - 1) / blockSize;
        if (blockCount > Integer.MAX_VALUE - 8) {
            throw new CorruptCheckpointException("variable " + newest.variables().get(variable).name() + " has "
                    + blockCount + " blocks of " + blockSize);
        }
        int blocks = (int) blockCount;
        int[] member = new int[blocks];
        int[] chunk = new int[blocks];
        Arrays.fill(member, -1);
        for (int m = 0; m < chain.size(); m++) {
            var table = chain.get(m).chunks();
            for (int c = 0; c < table.size(); c++) {
                if (table.variable(c) != variable) {
                    continue;
                }
                long start = table.variableOffset(c);
                long end = start + table.length(c);
                if (start % blockSize != 0 || end > size || (end % blockSize != 0 && end != size)) {
                    throw new CorruptCheckpointException("version " + chain.get(m).version() + " chunk " + c
                            + " is not whole blocks of variable " + newest.variables().get(variable).name());
                }
                Arrays.fill(member, (int) (start / blockSize), (int) ((end + blockSize - 1) / blockSize), m);
                Arrays.fill(chunk, (int) (start / blockSize), (int) ((end + blockSize - 1) / blockSize), c);
            }
        }
        // A chunk that newer versions cut into several runs is read (and checked) once: each reader's last chunk.
        int[] lastRead = new int[chain.size()];
        MemorySegment[] lastBytes = new MemorySegment[chain.size()];
        Arrays.fill(lastRead, -1);
        for (int first = 0; first < blocks; ) {
            int m = member[first];
            int c = chunk[first];
            if (m < 0) {
                throw new CorruptCheckpointException("block " + first + " of variable "
                        + newest.variables().get(variable).name() + " is in no version of the chain");
            }
            int end = first + 1;
            while (end < blocks && member[end] == m && chunk[end] == c) {
                end++;
            }
            var table = chain.get(m).chunks();
            long from = (long) first * blockSize;
            long to = Math.min((long) end * blockSize, size);
            if (lastRead[m] != c) {
                lastBytes[m] = readers.get(m).readChecked(c);
                lastRead[m] = c;
            }
            MemorySegment bytes = lastBytes[m];
            out.appendChunk(variable, from, bytes.asSlice(from - table.variableOffset(c), to - from));
            first = end;
        }
    }
}
