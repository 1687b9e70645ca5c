package dev.lazarus.store.level.l2;

import static dev.lazarus.store.level.l2.ParityManifestLayout.FILE_BYTES;
import static dev.lazarus.store.level.l2.ParityManifestLayout.TABLE_HEADER_BYTES;

import dev.lazarus.store.CorruptCheckpointException;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The files of one node's payload of one version, in payload order: rank ascending, each rank's manifest then its
 * data file. Encoded as the file table of {@link ParityManifestLayout}.
 *
 * @param files the files, in payload order
 */
public record PayloadTable(List<PayloadFile> files) {

    /** @throws IllegalArgumentException if the files are not in payload order or their sizes overflow */
    public PayloadTable {
        files = List.copyOf(files);
        String problem = orderProblem(files);
        if (problem != null) {
            throw new IllegalArgumentException("payload table invalid: " + problem);
        }
        totalOf(files);
    }

    /** @return the payload size: the files' sizes summed */
    public long payloadSize() {
        return totalOf(files);
    }

    /** @return the ranks, ascending */
    public List<Integer> ranks() {
        List<Integer> ranks = new ArrayList<>(files.size() / 2);
        for (int i = 0; i < files.size(); i += 2) {
            ranks.add(files.get(i).rank());
        }
        return ranks;
    }

    /** @return the bytes {@link #writeTo} writes */
    public int encodedBytes() {
        return TABLE_HEADER_BYTES + files.size() * FILE_BYTES;
    }

    /** Writes the table at the buffer's position, which must be little-endian. */
    public void writeTo(ByteBuffer out) {
        out.putLong(payloadSize()).putInt(files.size());
        for (PayloadFile file : files) {
            out.putInt(file.rank()).put((byte) file.kind().code()).put((byte) 0).putShort((short) 0)
                    .putLong(file.size()).putInt(file.crc32c()).putInt(0);
        }
    }

    /** @return the table alone, as the TABLE response's body */
    public byte[] encode() {
        ByteBuffer out = ByteBuffer.allocate(encodedBytes()).order(ByteOrder.LITTLE_ENDIAN);
        writeTo(out);
        return out.array();
    }

    /**
     * Reads a table at the buffer's position (little-endian), validating counts against what remains before
     * allocating and the order and sizes after.
     *
     * @param what how to name the source in messages
     * @throws CorruptCheckpointException one line with {@code what} and the reason
     */
    public static PayloadTable readFrom(ByteBuffer in, String what) throws CorruptCheckpointException {
        try {
            long payloadSize = in.getLong();
            long count = Integer.toUnsignedLong(in.getInt());
            if (count > in.remaining() / FILE_BYTES) {
                throw new CorruptCheckpointException(what + ": file count=" + count + " exceeds the "
                        + in.remaining() + " bytes left");
            }
            List<PayloadFile> files = new ArrayList<>((int) count);
            for (int i = 0; i < count; i++) {
                int rank = in.getInt();
                int kind = Byte.toUnsignedInt(in.get());
                in.get();
                in.getShort();
                long size = in.getLong();
                int crc = in.getInt();
                in.getInt();
                try {
                    files.add(new PayloadFile(rank, FileKind.ofCode(kind), size, crc));
                } catch (IllegalArgumentException e) {
                    throw new CorruptCheckpointException(what + ": file " + i + ": " + e.getMessage());
                }
            }
            PayloadTable table;
            try {
                table = new PayloadTable(files);
            } catch (IllegalArgumentException e) {
                throw new CorruptCheckpointException(what + ": " + e.getMessage());
            }
            if (table.payloadSize() != payloadSize) {
                throw new CorruptCheckpointException(what + ": payload size=" + payloadSize + " but files hold "
                        + table.payloadSize());
            }
            return table;
        } catch (BufferUnderflowException e) {
            throw new CorruptCheckpointException(what + ": file table runs past the end");
        }
    }

    /** @return the table encoded alone in {@code bytes} */
    public static PayloadTable decode(byte[] bytes, String what) throws CorruptCheckpointException {
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        PayloadTable table = readFrom(in, what);
        if (in.hasRemaining()) {
            throw new CorruptCheckpointException(what + ": " + in.remaining() + " bytes after the file table");
        }
        return table;
    }

    private static String orderProblem(List<PayloadFile> files) {
        if (files.size() % 2 != 0) {
            return "files=" + files.size() + " is odd, every rank has a manifest and a data file";
        }
        int previous = -1;
        for (int i = 0; i < files.size(); i += 2) {
            PayloadFile manifest = files.get(i);
            PayloadFile data = files.get(i + 1);
            if (manifest.kind() != FileKind.MANIFEST || data.kind() != FileKind.DATA
                    || manifest.rank() != data.rank() || manifest.rank() <= previous) {
                return "file " + i + " (" + manifest + ", " + data + ") out of payload order";
            }
            previous = manifest.rank();
        }
        return null;
    }

    private static long totalOf(List<PayloadFile> files) {
        long total = 0;
        for (PayloadFile file : files) {
            try {
                total = Math.addExact(total, file.size());
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("payload table invalid: sizes overflow at " + file);
            }
        }
        return total;
    }
}
