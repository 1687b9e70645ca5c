package dev.lazarus.checkpoint;

import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.ElementType;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** An all-gather of one short string per rank, in fixed-size slots: a 2-byte length, then UTF-8. */
final class StringGather {
    /** Longest string a slot holds. */
    static final int MAX_BYTES = 255;
    private static final int SLOT_BYTES = 2 + MAX_BYTES;

    private StringGather() {
    }

    /**
     * Collective.
     *
     * @return every rank's string, by rank
     * @throws IllegalArgumentException if {@code mine} is longer than {@value #MAX_BYTES} bytes
     */
    static List<String> allgather(Comm comm, String mine) {
        byte[] bytes = mine.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_BYTES) {
            throw new IllegalArgumentException("'" + mine + "' is longer than " + MAX_BYTES + " bytes");
        }
        byte[] slot = ByteBuffer.allocate(SLOT_BYTES).putShort((short) bytes.length).put(bytes).array();
        byte[] all = new byte[SLOT_BYTES * comm.size()];
        comm.allgather(slot, 0, SLOT_BYTES, all, 0, ElementType.BYTE);
        List<String> strings = new ArrayList<>(comm.size());
        for (int rank = 0; rank < comm.size(); rank++) {
            int offset = rank * SLOT_BYTES;
            int length = Math.min(ByteBuffer.wrap(all, offset, 2).getShort() & 0xFFFF, MAX_BYTES);
            strings.add(new String(all, offset + 2, length, StandardCharsets.UTF_8));
        }
        return strings;
    }
}
