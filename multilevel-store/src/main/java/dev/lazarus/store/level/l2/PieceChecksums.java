package dev.lazarus.store.level.l2;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * CRC32Cs of the pieces of one file, written in any order by any number of threads, joined into the file's CRC32C
 * once it is complete ({@link Crc32cCombine}). The pieces must tile the file: no gaps, no overlaps.
 */
final class PieceChecksums {
    private record Piece(long offset, long length, int crc) {
    }

    private final List<Piece> pieces = new ArrayList<>();

    /** Checksums {@code src} from its position to its limit, leaving both as they were. */
    void add(long offset, ByteBuffer src) {
        CRC32C crc = new CRC32C();
        int position = src.position();
        crc.update(src);
        long length = src.position() - position;
        src.position(position);
        synchronized (pieces) {
            pieces.add(new Piece(offset, length, (int) crc.getValue()));
        }
    }

    /**
     * @param size the file's size
     * @return the CRC32C of the whole file
     * @throws IllegalStateException if the pieces leave a gap or overlap, or do not end at {@code size}
     */
    int crc32c(long size) {
        List<Piece> sorted;
        synchronized (pieces) {
            sorted = new ArrayList<>(pieces);
        }
        sorted.sort(Comparator.comparingLong(Piece::offset));
        int crc = 0; // CRC32C of no bytes
        long end = 0;
        for (Piece piece : sorted) {
            if (piece.offset() != end) {
                throw new IllegalStateException("pieces do not tile the file: expected offset " + end + ", got "
                        + piece.offset());
            }
            crc = Crc32cCombine.combine(crc, piece.crc(), piece.length());
            end += piece.length();
        }
        if (end != size) {
            throw new IllegalStateException("pieces end at " + end + ", file size " + size);
        }
        return crc;
    }
}
