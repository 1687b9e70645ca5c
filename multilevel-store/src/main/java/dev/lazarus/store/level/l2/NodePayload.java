package dev.lazarus.store.level.l2;

import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.store.level.xor.ConcatenatedPayloadSource;
import dev.lazarus.store.level.xor.FileChannelPayloadSource;
import dev.lazarus.store.level.xor.PayloadSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;

/**
 * One node's L2 payload of one version: the rank files in its L1 version directory, rank ascending, each rank's
 * manifest then its data file, read as one concatenation. Files are opened once, with the sizes they have then.
 */
public final class NodePayload implements AutoCloseable {
    private static final int CRC_BUFFER_BYTES = 1 << 20;

    private final Path[] paths;
    private final int[] ranks;
    private final FileKind[] kinds;
    private final FileChannel[] channels;
    /** starts[i] is where file i begins in the payload; starts[files] is the payload size. */
    private final long[] starts;

    private NodePayload(Path[] paths, int[] ranks, FileKind[] kinds, FileChannel[] channels) throws IOException {
        this.paths = paths;
        this.ranks = ranks;
        this.kinds = kinds;
        this.channels = channels;
        long[] sizes = new long[channels.length];
        for (int i = 0; i < channels.length; i++) {
            sizes[i] = channels[i].size();
        }
        this.starts = ConcatenatedPayloadSource.starts(sizes);
    }

    /**
     * Opens the rank files of a version on this node.
     *
     * @throws NoSuchFileException if the node has no rank manifest of the version, or a rank's data file is missing
     */
    public static NodePayload open(CheckpointDirectory directory, long version) throws IOException {
        List<Integer> present = directory.ranksWithManifest(version);
        if (present.isEmpty()) {
            throw new NoSuchFileException("no checkpoint of version=" + version + " on this node");
        }
        int files = present.size() * 2;
        Path[] paths = new Path[files];
        int[] ranks = new int[files];
        FileKind[] kinds = new FileKind[files];
        FileChannel[] channels = new FileChannel[files];
        try {
            for (int i = 0; i < files; i++) {
                int rank = present.get(i / 2);
                ranks[i] = rank;
                kinds[i] = i % 2 == 0 ? FileKind.MANIFEST : FileKind.DATA;
                paths[i] = kinds[i] == FileKind.MANIFEST ? directory.manifestFile(version, rank)
                        : directory.dataFile(version, rank);
                channels[i] = FileChannel.open(paths[i], StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
            }
            return new NodePayload(paths, ranks, kinds, channels);
        } catch (IOException | RuntimeException e) {
            closeAll(channels);
            if (e instanceof NoSuchFileException missing) {
                throw new NoSuchFileException("checkpoint file missing: version=" + version + " file="
                        + missing.getFile());
            }
            throw e;
        }
    }

    /** @return the payload size in bytes */
    public long size() {
        return starts[channels.length];
    }

    /** @return the payload as one source, over the open files */
    public PayloadSource source() {
        List<PayloadSource> parts = new ArrayList<>(channels.length);
        for (int i = 0; i < channels.length; i++) {
            parts.add(new FileChannelPayloadSource(channels[i], 0, starts[i + 1] - starts[i]));
        }
        return new ConcatenatedPayloadSource(parts);
    }

    /**
     * Reads every file once and returns the table of their sizes and CRC32Cs.
     *
     * @throws IOException if a file ends early
     */
    public PayloadTable table() throws IOException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(CRC_BUFFER_BYTES);
        CRC32C crc = new CRC32C();
        List<PayloadFile> files = new ArrayList<>(channels.length);
        for (int i = 0; i < channels.length; i++) {
            long size = starts[i + 1] - starts[i];
            crc.reset();
            for (long at = 0; at < size; ) {
                buffer.clear().limit((int) Math.min(buffer.capacity(), size - at));
                int n = channels[i].read(buffer, at);
                if (n < 0) {
                    throw new IOException("file shrank while read: path=" + paths[i] + " size=" + size
                            + " endsAt=" + at);
                }
                at += n;
                crc.update(buffer.flip());
            }
            files.add(new PayloadFile(ranks[i], kinds[i], size, (int) crc.getValue()));
        }
        return new PayloadTable(files);
    }

    /**
     * Sends bytes {@code [position, position + length)} of the payload to {@code sink}, one call per file part (the
     * daemon's link sends each with sendfile).
     *
     * @throws IllegalArgumentException if the range is not inside the payload
     */
    public void transferTo(long position, long length, FileRangeSink sink) throws IOException {
        if (position < 0 || length < 0 || position > size() - length) {
            throw new IllegalArgumentException("range outside payload: offset=" + position + " length=" + length
                    + " payloadSize=" + size());
        }
        // Where empty files share a start, the one found may be any of them; the loop steps over empty files.
        for (int i = ConcatenatedPayloadSource.firstPart(starts, position); length > 0; i++) {
            long inFile = position - starts[i];
            long n = Math.min(length, starts[i + 1] - position);
            if (n > 0) {
                sink.transferFrom(channels[i], inFile, n);
                position += n;
                length -= n;
            }
        }
    }

    /**
     * @return the files' identity, sizes and modification times, which change whenever a file is replaced or
     *         written: a cached table of this payload is stale when its fingerprint differs
     */
    public static long[] fingerprint(CheckpointDirectory directory, long version) throws IOException {
        List<Integer> ranks = directory.ranksWithManifest(version);
        long[] fingerprint = new long[ranks.size() * 5];
        for (int r = 0; r < ranks.size(); r++) {
            BasicFileAttributes manifest = attributes(directory.manifestFile(version, ranks.get(r)));
            BasicFileAttributes data = attributes(directory.dataFile(version, ranks.get(r)));
            fingerprint[r * 5] = ranks.get(r);
            fingerprint[r * 5 + 1] = manifest.size();
            fingerprint[r * 5 + 2] = manifest.lastModifiedTime().to(TimeUnit.NANOSECONDS);
            fingerprint[r * 5 + 3] = data.size();
            fingerprint[r * 5 + 4] = data.lastModifiedTime().to(TimeUnit.NANOSECONDS);
        }
        return fingerprint;
    }

    private static BasicFileAttributes attributes(Path file) throws IOException {
        return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    }

    @Override
    public void close() {
        closeAll(channels);
    }

    private static void closeAll(FileChannel[] channels) {
        for (FileChannel channel : channels) {
            if (channel != null) {
                try {
                    channel.close();
                } catch (IOException e) {
                    // A read-only channel has nothing to lose on close.
                }
            }
        }
    }
}
