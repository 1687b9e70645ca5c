package dev.lazarus.store.dirty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;
import net.openhft.hashing.LongTupleHashFunction;
import org.junit.jupiter.api.Test;

/** Our long-input XXH3-128 against zero-allocation-hashing's, on every length class a block can have. */
class Xxh3Long128Test {
    private static final LongTupleHashFunction REFERENCE = LongTupleHashFunction.xx128();

    private static long[] words(byte[] bytes, int offset, int length, int padding) {
        long[] words = new long[padding + length / Long.BYTES];
        MemorySegment.copy(MemorySegment.ofArray(bytes), Xxh3Long128.LE, offset, words, padding, length / Long.BYTES);
        return words;
    }

    @Test
    void matchesTheReferenceOnEveryLengthClass() {
        SplittableRandom random = new SplittableRandom(42);
        byte[] bytes = new byte[3 * 65536 + 64];
        random.nextBytes(bytes);
        long[] ours = new long[2];
        long[] reference = new long[2];
        int[] lengths = {248, 256, 504, 512, 520, 1016, 1024, 1032, 1088, 2048, 4096, 4104, 65536, 65536 * 2 + 8};
        for (int length : lengths) {
            for (int offset : new int[] {0, 1, 8, 61}) {
                REFERENCE.hashBytes(bytes, offset, length, reference);
                Xxh3Long128.hash(words(bytes, offset, length, 3), 3, length, ours);
                assertArrayEquals(reference, ours, "length=" + length + " offset=" + offset);
            }
        }
        for (int trial = 0; trial < 300; trial++) {
            int length = Xxh3Long128.MIN_LENGTH + 8 * random.nextInt(3000);
            int offset = random.nextInt(bytes.length - length);
            REFERENCE.hashBytes(bytes, offset, length, reference);
            Xxh3Long128.hash(words(bytes, offset, length, 0), 0, length, ours);
            assertArrayEquals(reference, ours, "length=" + length + " offset=" + offset);
        }
    }

    @Test
    void onlyLongInputsOfWholeWordsAreAccepted() {
        assertTrue(Xxh3Long128.accepts(248));
        assertFalse(Xxh3Long128.accepts(240));
        assertFalse(Xxh3Long128.accepts(513));
        assertThrows(IllegalArgumentException.class, () -> Xxh3Long128.hash(new long[64], 0, 240, new long[2]));
        assertThrows(IllegalArgumentException.class, () -> Xxh3Long128.hash(new long[64], 0, 257, new long[2]));
    }
}
