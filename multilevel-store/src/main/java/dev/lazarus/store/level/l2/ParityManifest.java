package dev.lazarus.store.level.l2;

import static dev.lazarus.store.level.l2.ParityManifestLayout.*;

import dev.lazarus.store.CorruptCheckpointException;
import dev.lazarus.store.JobId;
import dev.lazarus.store.files.SecureFiles;
import dev.lazarus.store.files.UnsafePathException;
import dev.lazarus.store.level.xor.XorSetLayout;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * What one member of an L2 set stores beside its parity for one version ({@link ParityManifestLayout}). Every member's
 * copy holds the whole set's tables, so any survivor's copy tells a replacement node its lost files.
 *
 * @param scheme    how the set protects its members: the parity file is an XOR chunk or a partner copy
 * @param job       the job id
 * @param version   the checkpoint version
 * @param setId     which set of the node list this is
 * @param member    this member's index in the set
 * @param addresses the members' addresses (host:port) when encoded, by set index; informational only
 * @param tables    every member's payload table, by set index
 * @param chunkSize the XOR layout's chunk size, which is this member's parity size under {@link L2Scheme#XOR}
 * @param parityCrc CRC32C of this member's parity file
 */
public record ParityManifest(L2Scheme scheme, String job, long version, int setId, int member,
                             List<String> addresses, List<PayloadTable> tables, long chunkSize, int parityCrc) {

    /** @throws IllegalArgumentException if a field is out of range or the chunk size does not follow the sizes */
    public ParityManifest {
        JobId.check(job);
        Objects.requireNonNull(scheme, "scheme");
        addresses = List.copyOf(addresses);
        tables = List.copyOf(tables);
        if (version < 0 || setId < 0 || addresses.size() != tables.size()) {
            throw new IllegalArgumentException("parity manifest invalid: version=" + version + " setId=" + setId
                    + " addresses=" + addresses.size() + " tables=" + tables.size());
        }
        for (int m = 0; m < addresses.size(); m++) {
            String address = addresses.get(m);
            if (address.isEmpty() || address.length() > MAX_ADDRESS_BYTES
                    || !address.chars().allMatch(c -> c > ' ' && c < 0x7F)) {
                throw new IllegalArgumentException("member address invalid, must be 1 to " + MAX_ADDRESS_BYTES
                        + " printable ASCII characters: member=" + m);
            }
        }
        XorSetLayout layout = layoutOf(tables); // checks the set size
        if (member < 0 || member >= tables.size() || layout.chunkSize() != chunkSize) {
            throw new IllegalArgumentException("parity manifest invalid: member=" + member + " setSize="
                    + tables.size() + " chunkSize=" + chunkSize + " layoutChunkSize=" + layout.chunkSize());
        }
    }

    /** @return the set's layout, from the members' payload sizes */
    public XorSetLayout layout() {
        return layoutOf(tables);
    }

    /** @return the number of members */
    public int setSize() {
        return tables.size();
    }

    /**
     * @return the size of this member's parity file: the chunk size under {@link L2Scheme#XOR}, the left neighbour's
     *         payload size under {@link L2Scheme#PARTNER}
     */
    public long paritySize() {
        return scheme.paritySize(layout(), member);
    }

    /**
     * @return null if {@code other} describes the same set and payloads (the member index, addresses and parity CRC
     *         may differ), else what differs
     */
    public String differenceFrom(ParityManifest other) {
        if (scheme != other.scheme) {
            return "scheme " + scheme.label() + " vs " + other.scheme.label();
        }
        if (!job.equals(other.job) || version != other.version || setId != other.setId) {
            return "job/version/set " + job + "/" + version + "/" + setId + " vs " + other.job + "/"
                    + other.version + "/" + other.setId;
        }
        if (setSize() != other.setSize()) {
            return "setSize=" + setSize() + " vs " + other.setSize();
        }
        for (int m = 0; m < setSize(); m++) {
            if (!tables.get(m).equals(other.tables.get(m))) {
                return "file table of member " + m + " differs";
            }
        }
        return null;
    }

    /** @return the manifest's bytes, ending in their CRC32C */
    public byte[] encode() {
        byte[] jobBytes = job.getBytes(StandardCharsets.US_ASCII);
        int length = HEADER_BYTES + jobBytes.length + CRC_BYTES;
        for (int m = 0; m < setSize(); m++) {
            length += 2 + addresses.get(m).length() + tables.get(m).encodedBytes();
        }
        ByteBuffer out = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        out.putLong(MAGIC).putInt(FORMAT).putInt(length).putLong(version).putInt(setId)
                .putShort((short) setSize()).putShort((short) member).putShort((short) jobBytes.length)
                .putShort((short) scheme.code()).putInt(parityCrc).putLong(chunkSize).put(jobBytes);
        for (int m = 0; m < setSize(); m++) {
            byte[] address = addresses.get(m).getBytes(StandardCharsets.US_ASCII);
            out.putShort((short) address.length).put(address);
            tables.get(m).writeTo(out);
        }
        CRC32C crc = new CRC32C();
        crc.update(out.array(), 0, length - CRC_BYTES);
        out.putInt((int) crc.getValue());
        return out.array();
    }

    /**
     * Reads a parity manifest file, its size bounded before reading.
     *
     * @throws CorruptCheckpointException if it is missing, a link (never followed), oversized or fails validation;
     *                                    the message names the file
     */
    public static ParityManifest read(Path file) throws IOException {
        byte[] bytes;
        try {
            bytes = SecureFiles.readBounded(file, MAX_MANIFEST_BYTES);
        } catch (NoSuchFileException e) {
            throw new CorruptCheckpointException(file + ": missing");
        } catch (UnsafePathException e) {
            throw new CorruptCheckpointException(e.getMessage());
        }
        return decode(bytes, file.toString());
    }

    /**
     * Parses and validates a parity manifest. Nothing is allocated from an unchecked size.
     *
     * @param what how to name the source in messages
     * @throws CorruptCheckpointException with {@code what} and the reason
     */
    public static ParityManifest decode(byte[] bytes, String what) throws CorruptCheckpointException {
        if (bytes.length < HEADER_BYTES + CRC_BYTES || bytes.length > MAX_MANIFEST_BYTES) {
            throw corrupt(what, "size=" + bytes.length + " outside " + (HEADER_BYTES + CRC_BYTES) + ".."
                    + MAX_MANIFEST_BYTES);
        }
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (in.getLong(0) != MAGIC) {
            throw corrupt(what, "not a parity manifest (bad magic)");
        }
        if (in.getInt(FORMAT_OFFSET) != FORMAT) {
            throw corrupt(what, "format=" + in.getInt(FORMAT_OFFSET) + " unsupported, expected " + FORMAT);
        }
        if (in.getInt(TOTAL_LENGTH_OFFSET) != bytes.length) {
            throw corrupt(what, "length=" + bytes.length + " but header says " + in.getInt(TOTAL_LENGTH_OFFSET));
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - CRC_BYTES);
        if ((int) crc.getValue() != in.getInt(bytes.length - CRC_BYTES)) {
            throw corrupt(what, "checksum mismatch");
        }
        in.limit(bytes.length - CRC_BYTES);
        try {
            return parse(in, what);
        } catch (BufferUnderflowException e) {
            throw corrupt(what, "fields run past the end");
        }
    }

    private static ParityManifest parse(ByteBuffer in, String what) throws CorruptCheckpointException {
        long version = in.getLong(VERSION_OFFSET);
        int setId = in.getInt(SET_ID_OFFSET);
        int setSize = Short.toUnsignedInt(in.getShort(SET_SIZE_OFFSET));
        int member = Short.toUnsignedInt(in.getShort(MEMBER_OFFSET));
        int jobLength = Short.toUnsignedInt(in.getShort(JOB_LENGTH_OFFSET));
        int schemeCode = Short.toUnsignedInt(in.getShort(SCHEME_OFFSET));
        int parityCrc = in.getInt(PARITY_CRC_OFFSET);
        long chunkSize = in.getLong(CHUNK_SIZE_OFFSET);
        if (setSize < XorSetLayout.MIN_SET_SIZE || setSize > XorSetLayout.MAX_SET_SIZE || member >= setSize) {
            throw corrupt(what, "setSize=" + setSize + " member=" + member + " invalid");
        }
        if (jobLength < 1 || jobLength > 64) {
            throw corrupt(what, "job length=" + jobLength + " invalid");
        }
        L2Scheme scheme = L2Scheme.ofCode(schemeCode);
        if (scheme == null) {
            throw corrupt(what, "scheme=" + schemeCode + " unknown");
        }
        in.position(HEADER_BYTES);
        String job = ascii(in, jobLength);
        List<String> addresses = new ArrayList<>(setSize);
        List<PayloadTable> tables = new ArrayList<>(setSize);
        for (int m = 0; m < setSize; m++) {
            int addressLength = Short.toUnsignedInt(in.getShort());
            if (addressLength < 1 || addressLength > MAX_ADDRESS_BYTES || addressLength > in.remaining()) {
                throw corrupt(what, "member " + m + " address length=" + addressLength + " invalid");
            }
            addresses.add(ascii(in, addressLength));
            tables.add(PayloadTable.readFrom(in, what + ": member " + m));
        }
        if (in.hasRemaining()) {
            throw corrupt(what, in.remaining() + " bytes after the last member");
        }
        try {
            return new ParityManifest(scheme, job, version, setId, member, addresses, tables, chunkSize,
                    parityCrc);
        } catch (IllegalArgumentException e) {
            throw corrupt(what, e.getMessage());
        }
    }

    private static String ascii(ByteBuffer in, int length) {
        byte[] bytes = new byte[length];
        in.get(bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    /**
     * @param tables every member's payload table, by set index
     * @return the set's layout, from the members' payload sizes
     * @throws IllegalArgumentException as {@link XorSetLayout#of} does
     */
    public static XorSetLayout layoutOf(List<PayloadTable> tables) {
        long[] sizes = new long[tables.size()];
        for (int m = 0; m < sizes.length; m++) {
            sizes[m] = tables.get(m).payloadSize();
        }
        return XorSetLayout.of(sizes);
    }

    private static CorruptCheckpointException corrupt(String what, String reason) {
        return new CorruptCheckpointException(what + ": " + reason);
    }
}
