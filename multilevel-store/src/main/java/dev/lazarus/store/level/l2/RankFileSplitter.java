package dev.lazarus.store.level.l2;

import dev.lazarus.store.files.SecureFiles;
import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.store.level.xor.SliceSink;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits a rebuilt payload back into the rank files its table lists: slices of the payload, in any order and from
 * any number of threads, go to each file's partial name at their place. {@link #verify} compares every file's size
 * and CRC32C with the table; only then does {@link #publish} rename them into place, data files first and manifests
 * last, so a rank's manifest never appears before its data. Paths come from the version, rank and kind only.
 */
public final class RankFileSplitter implements SliceSink, AutoCloseable {
    private final CheckpointDirectory directory;
    private final long version;
    private final List<PayloadFile> files;
    private final PartialFile[] outputs;
    /** starts[i]: where file i begins in the payload; starts[files.size()] is the payload's size. */
    private final long[] starts;

    /**
     * Creates every file's partial name, empty.
     *
     * @param table the files to produce, in payload order
     */
    public RankFileSplitter(CheckpointDirectory directory, long version, PayloadTable table) throws IOException {
        this.directory = directory;
        this.version = version;
        this.files = table.files();
        this.outputs = new PartialFile[files.size()];
        this.starts = new long[files.size() + 1];
        try {
            for (int i = 0; i < files.size(); i++) {
                outputs[i] = new PartialFile(ParityFiles.payloadFile(directory, version, files.get(i)));
                starts[i + 1] = starts[i] + files.get(i).size();
            }
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * Writes a slice of the payload into the files it covers. Safe to call from several threads for disjoint
     * slices.
     *
     * @param position where the slice begins in the payload
     * @throws IOException if the slice reaches past the payload, or a write fails
     */
    @Override
    public void write(long position, ByteBuffer slice) throws IOException {
        if (position < 0 || position + slice.remaining() > starts[files.size()]) {
            throw new IOException("rebuilt payload longer than its file table: version=" + version + " slice="
                    + position + "+" + slice.remaining() + " payloadSize=" + starts[files.size()]);
        }
        int limit = slice.limit();
        int file = fileAt(position);
        while (slice.hasRemaining()) {
            long room = starts[file + 1] - position;
            slice.limit((int) Math.min(limit, slice.position() + room));
            int length = slice.remaining();
            outputs[file].writeAt(position - starts[file], slice);
            slice.limit(limit);
            position += length;
            file++;
        }
    }

    /** @return the file holding payload byte {@code position}: the last whose start is at or before it */
    private int fileAt(long position) {
        int index = Arrays.binarySearch(starts, 0, files.size(), position);
        if (index < 0) {
            return -index - 2;
        }
        // Empty files share their start with the next file: take the last file starting here.
        while (index + 1 < files.size() && starts[index + 1] == position) {
            index++;
        }
        return index;
    }

    /**
     * Finishes every file and checks its size and CRC32C against the table.
     *
     * @return one line per file that does not match, empty if all do
     */
    public List<String> verify() throws IOException {
        List<String> bad = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            PayloadFile expected = files.get(i);
            PartialFile out = outputs[i];
            out.finish();
            if (out.written() != expected.size()) {
                bad.add(expected + " size=" + out.written() + " expected=" + expected.size());
            } else if (out.crc32c() != expected.crc32c()) {
                bad.add(expected + " crc32c=" + Integer.toHexString(out.crc32c()) + " expected="
                        + Integer.toHexString(expected.crc32c()));
            }
        }
        return bad;
    }

    /** Renames the verified files into place: data files, then manifests, then an fsync of the directory. */
    public void publish() throws IOException {
        for (FileKind kind : List.of(FileKind.DATA, FileKind.MANIFEST)) {
            for (int i = 0; i < files.size(); i++) {
                if (files.get(i).kind() == kind) {
                    outputs[i].publish();
                }
            }
        }
        SecureFiles.syncDirectory(directory.versionDirectory(version));
    }

    /** Deletes whatever was not published. */
    @Override
    public void close() {
        for (PartialFile out : outputs) {
            if (out != null) {
                out.discard();
            }
        }
    }
}
