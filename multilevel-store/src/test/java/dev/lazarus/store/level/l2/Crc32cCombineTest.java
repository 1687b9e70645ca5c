package dev.lazarus.store.level.l2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class Crc32cCombineTest {

    @Test
    void joinedPieceChecksumsEqualTheWholeOnesChecksum() {
        Random random = new Random(5);
        byte[] bytes = new byte[1 << 20];
        random.nextBytes(bytes);
        for (int trial = 0; trial < 200; trial++) {
            int length = trial < 10 ? trial : random.nextInt(bytes.length);
            int split = length == 0 ? 0 : random.nextInt(length + 1);
            int first = crc(bytes, 0, split);
            int second = crc(bytes, split, length - split);
            assertEquals(crc(bytes, 0, length), Crc32cCombine.combine(first, second, length - split),
                    "length=" + length + " split=" + split);
        }
    }

    @Test
    void aNegativeLengthIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Crc32cCombine.combine(1, 2, -1));
    }

    private static int crc(byte[] bytes, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }
}
