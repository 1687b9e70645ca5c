package dev.lazarus.store.format;

import dev.lazarus.store.JobId;
import static dev.lazarus.store.format.ManifestLayout.*;

import dev.lazarus.store.CorruptCheckpointException;
import dev.lazarus.store.ElementType;
import dev.lazarus.store.Variable;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * One rank's checkpoint of one version: who wrote it, which version it increments (or none, for a full checkpoint),
 * its variables and the chunks of its data file. {@link #encode()} and {@link #decode} follow {@link ManifestLayout}.
 *
 * @param job           the job id, as {@link dev.lazarus.store.JobId} checks it
 * @param rank          the writing rank
 * @param worldSize     ranks in the job
 * @param version       checkpoint version, at least 0
 * @param parentVersion the version this one increments, or {@link ManifestLayout#NO_PARENT} for a full checkpoint
 * @param blockSize     the hashing block size the increment was computed with
 * @param variables     the variables, in protection order
 * @param chunks        the data file's chunks, contiguous from offset 0
 * @param pageFilter    whether the writer hashed only pages the kernel saw written
 * @param unverified    whether the writer computed on state no acceptance check has passed yet: a run resumed from
 *                      NVM, or restored from a version that was itself unverified (recovery invariant 2)
 */
public record RankManifest(String job, int rank, int worldSize, long version, long parentVersion, int blockSize,
                           List<Variable> variables, ChunkTable chunks, PageFilter pageFilter, boolean unverified) {
    /** Largest world size accepted from a file. */
    public static final int MAX_WORLD = 1 << 24;

    public RankManifest {
        variables = List.copyOf(variables);
        Objects.requireNonNull(pageFilter, "pageFilter");
    }

    /** A manifest of verified lineage: written by a run that started fresh or from a verified version. */
    public RankManifest(String job, int rank, int worldSize, long version, long parentVersion, int blockSize,
                        List<Variable> variables, ChunkTable chunks, PageFilter pageFilter) {
        this(job, rank, worldSize, version, parentVersion, blockSize, variables, chunks, pageFilter, false);
    }

    /** @return true for a full checkpoint, false for an increment */
    public boolean full() {
        return parentVersion == NO_PARENT;
    }

    /** @return bytes of the data file */
    public long dataLength() {
        return chunks.totalBytes();
    }

    /** @return the manifest's bytes, ending in their CRC32C */
    public byte[] encode() {
        byte[] jobBytes = job.getBytes(StandardCharsets.UTF_8);
        int length = HEADER_BYTES + jobBytes.length + CRC_BYTES + chunks.size() * CHUNK_BYTES;
        for (Variable v : variables) {
            length += 2 + v.name().length() + 2 + 8 * v.shape().length;
        }
        ByteBuffer out = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        out.putLong(MAGIC).putInt(FORMAT).putInt(length).putInt(rank).putInt(worldSize).putLong(version)
                .putLong(parentVersion).putInt(blockSize).putShort((short) jobBytes.length)
                .putShort((short) variables.size()).putInt(chunks.size())
                .putShort((short) pageFilter.code()).putShort((short) (unverified ? FLAG_UNVERIFIED : 0))
                .putLong(dataLength())
                .put(jobBytes);
        for (Variable v : variables) {
            byte[] name = v.name().getBytes(StandardCharsets.US_ASCII);
            long[] shape = v.shape();
            out.putShort((short) name.length).put(name).put((byte) v.type().code()).put((byte) shape.length);
            for (long extent : shape) {
                out.putLong(extent);
            }
        }
        for (int i = 0; i < chunks.size(); i++) {
            out.putInt(chunks.variable(i)).putInt(chunks.length(i)).putLong(chunks.variableOffset(i))
                    .putLong(chunks.dataOffset(i)).putInt(chunks.crc(i)).putInt(0);
        }
        CRC32C crc = new CRC32C();
        crc.update(out.array(), 0, length - CRC_BYTES);
        out.putInt((int) crc.getValue());
        return out.array();
    }

    /**
     * Parses and validates a manifest. Nothing is allocated from an unchecked size.
     *
     * @param bytes the whole file
     * @param what  how to name the file in messages
     * @throws CorruptCheckpointException with {@code what} and the reason
     */
    public static RankManifest decode(byte[] bytes, String what) throws CorruptCheckpointException {
        if (bytes.length < HEADER_BYTES + CRC_BYTES || bytes.length > MAX_MANIFEST_BYTES) {
            throw corrupt(what, "size=" + bytes.length + " outside " + (HEADER_BYTES + CRC_BYTES) + ".."
                    + MAX_MANIFEST_BYTES);
        }
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (in.getLong(0) != MAGIC) {
            throw corrupt(what, "not a Lazarus manifest (bad magic)");
        }
        if (in.getInt(FORMAT_OFFSET) != FORMAT) {
            throw corrupt(what, "format=" + in.getInt(FORMAT_OFFSET) + " unsupported, expected " + FORMAT);
        }
        if (in.getInt(TOTAL_LENGTH_OFFSET) != bytes.length) {
            throw corrupt(what, "length=" + bytes.length + " but header says " + in.getInt(TOTAL_LENGTH_OFFSET)
                    + " (truncated or extended)");
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - CRC_BYTES);
        if ((int) crc.getValue() != in.getInt(bytes.length - CRC_BYTES)) {
            throw corrupt(what, "checksum mismatch");
        }
        try {
            return new ManifestParser(in, bytes.length - CRC_BYTES, what).parse();
        } catch (BufferUnderflowException e) {
            throw corrupt(what, "fields run past the end");
        }
    }

    static CorruptCheckpointException corrupt(String what, String reason) {
        return new CorruptCheckpointException(what + ": " + reason);
    }

    /** Reads the fields after the checksum has passed, checking each against what remains. */
    private record ManifestParser(ByteBuffer in, int end, String what) {

        RankManifest parse() throws CorruptCheckpointException {
            int rank = in.getInt(RANK_OFFSET);
            int world = in.getInt(WORLD_OFFSET);
            long version = in.getLong(VERSION_OFFSET);
            long parent = in.getLong(PARENT_OFFSET);
            int blockSize = in.getInt(BLOCK_SIZE_OFFSET);
            int jobLength = Short.toUnsignedInt(in.getShort(JOB_LENGTH_OFFSET));
            int variableCount = Short.toUnsignedInt(in.getShort(VARIABLE_COUNT_OFFSET));
            long chunkCount = Integer.toUnsignedLong(in.getInt(CHUNK_COUNT_OFFSET));
            long dataLength = in.getLong(DATA_LENGTH_OFFSET);
            PageFilter pageFilter = PageFilter.ofCode(Short.toUnsignedInt(in.getShort(PAGE_FILTER_OFFSET)));
            if (pageFilter == null) {
                throw corrupt(what, "page filter=" + Short.toUnsignedInt(in.getShort(PAGE_FILTER_OFFSET))
                        + " unknown");
            }
            int flags = Short.toUnsignedInt(in.getShort(FLAGS_OFFSET));
            if ((flags & ~FLAG_UNVERIFIED) != 0) {
                throw corrupt(what, "flags=" + flags + " unknown");
            }
            // Messages are built only on failure: the checks below run for every variable and chunk.
            if (!(world >= 1 && world <= MAX_WORLD && rank >= 0 && rank < world)) {
                throw corrupt(what, "rank=" + rank + " world=" + world + " invalid");
            }
            if (!(version >= 0 && (parent == NO_PARENT || (parent >= 0 && parent < version)))) {
                throw corrupt(what, "version=" + version + " parent=" + parent + " invalid");
            }
            if (!(Integer.bitCount(blockSize) == 1 && blockSize >= 256 && blockSize <= 65536)) {
                throw corrupt(what, "blockSize=" + blockSize + " invalid");
            }
            if (!(jobLength >= 1 && jobLength <= 64)) {
                throw corrupt(what, "job length=" + jobLength + " invalid");
            }
            in.position(HEADER_BYTES);
            String job = ascii(jobLength);
            if (!JobId.valid(job)) {
                throw corrupt(what, "job id invalid");
            }
            List<Variable> variables = new ArrayList<>(Math.min(variableCount, remaining() / 4));
            for (int i = 0; i < variableCount; i++) {
                variables.add(variable());
            }
            if (chunkCount * CHUNK_BYTES != remaining()) {
                throw corrupt(what, "chunks=" + chunkCount + " do not fill the " + remaining() + " bytes left");
            }
            ChunkTable chunks = chunks((int) chunkCount, variables);
            long chunkBytes = chunks.totalBytes();
            if (chunkBytes != dataLength) {
                throw corrupt(what, "data length=" + dataLength + " but chunks hold " + chunkBytes);
            }
            return new RankManifest(job, rank, world, version, parent, blockSize, variables, chunks, pageFilter,
                    (flags & FLAG_UNVERIFIED) != 0);
        }

        private Variable variable() throws CorruptCheckpointException {
            int nameLength = Short.toUnsignedInt(in.getShort());
            if (!(nameLength >= 1 && nameLength <= 64 && nameLength + 2 <= remaining())) {
                throw corrupt(what, "variable name length=" + nameLength + " invalid");
            }
            String name = ascii(nameLength);
            int typeCode = Byte.toUnsignedInt(in.get());
            int dimensions = Byte.toUnsignedInt(in.get());
            if (!(dimensions >= 1 && dimensions <= Variable.MAX_DIMENSIONS && dimensions * 8 <= remaining())) {
                throw corrupt(what, "variable " + name + " dimensions=" + dimensions + " invalid");
            }
            long[] shape = new long[dimensions];
            for (int d = 0; d < dimensions; d++) {
                shape[d] = in.getLong();
            }
            try {
                return new Variable(name, ElementType.ofCode(typeCode), shape);
            } catch (IllegalArgumentException | ArithmeticException e) {
                throw corrupt(what, "variable invalid: " + e.getMessage());
            }
        }

        private ChunkTable chunks(int count, List<Variable> variables) throws CorruptCheckpointException {
            ChunkTable chunks = new ChunkTable();
            long dataOffset = 0;
            for (int i = 0; i < count; i++) {
                int variable = in.getInt();
                int length = in.getInt();
                long variableOffset = in.getLong();
                long offset = in.getLong();
                int crc = in.getInt();
                in.getInt();
                if (!(variable >= 0 && variable < variables.size())) {
                    throw corrupt(what, "chunk " + i + " variable=" + variable + " out of range");
                }
                if (!(length >= 1 && length <= MAX_CHUNK_BYTES && variableOffset >= 0
                        && variableOffset <= variables.get(variable).byteSize() - length)) {
                    throw corrupt(what, "chunk " + i + " offset=" + variableOffset + " length=" + length
                            + " outside variable " + variables.get(variable).name());
                }
                if (offset != dataOffset) {
                    throw corrupt(what, "chunk " + i + " data offset=" + offset + " expected " + dataOffset);
                }
                chunks.add(variable, variableOffset, length, offset, crc);
                dataOffset += length;
            }
            return chunks;
        }

        private String ascii(int length) {
            byte[] bytes = new byte[length];
            in.get(bytes);
            return new String(bytes, StandardCharsets.US_ASCII);
        }

        private int remaining() {
            return end - in.position();
        }
    }
}
