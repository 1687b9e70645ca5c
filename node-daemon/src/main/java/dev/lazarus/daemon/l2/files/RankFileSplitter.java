package dev.lazarus.daemon.l2.files;

import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.store.level.SecureFiles;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a rebuilt payload back into the rank files its table lists: bytes arrive in payload order and go to each
 * file's partial name. {@link #verify} compares every file's CRC32C with the table; only then does {@link #publish}
 * rename them into place, data files first and manifests last, so a rank's manifest never appears before its data.
 * Paths come from the version, rank and kind only. Writes allocate nothing.
 */
public final class RankFileSplitter implements WritableByteChannel, AutoCloseable {
    private final CheckpointDirectory directory;
    private final long version;
    private final List<PayloadFile> files;
    private final PartialFile[] outputs;
    /** The file being written; files.size() once every byte arrived. */
    private int current;

    /** @param table the files to produce, in payload order */
    public RankFileSplitter(CheckpointDirectory directory, long version, PayloadTable table) {
        this.directory = directory;
        this.version = version;
        this.files = table.files();
        this.outputs = new PartialFile[files.size()];
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        int total = src.remaining();
        int limit = src.limit();
        while (src.hasRemaining()) {
            PartialFile out = nextWithRoom();
            if (out == null) {
                throw new IOException("rebuilt payload longer than its file table: version=" + version
                        + " extraBytes=" + src.remaining());
            }
            long room = files.get(current).size() - out.written();
            src.limit((int) Math.min(limit, src.position() + room));
            out.write(src);
            src.limit(limit);
        }
        return total;
    }

    /** @return the file with room for more bytes, opening files (and finishing full ones) on the way */
    private PartialFile nextWithRoom() throws IOException {
        while (current < files.size()) {
            if (outputs[current] == null) {
                outputs[current] = new PartialFile(ParityFiles.payloadFile(directory, version, files.get(current)));
            }
            if (outputs[current].written() < files.get(current).size()) {
                return outputs[current];
            }
            outputs[current].finish();
            current++;
        }
        return null;
    }

    /**
     * Finishes every file and checks its size and CRC32C against the table.
     *
     * @return one line per file that does not match, empty if all do
     */
    public List<String> verify() throws IOException {
        nextWithRoom(); // creates trailing empty files
        List<String> bad = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            PayloadFile expected = files.get(i);
            PartialFile out = outputs[i];
            if (out == null || out.written() != expected.size()) {
                bad.add(expected + " size=" + (out == null ? 0 : out.written()) + " expected=" + expected.size());
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

    @Override
    public boolean isOpen() {
        return true;
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
