package dev.lazarus.npb.common;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The generator's modular multiply against exact big-integer arithmetic. */
class NpbRandomTest {
    private static final BigInteger MOD = BigInteger.ONE.shiftLeft(46);

    @Test
    void multiplyMod46IsExactForEveryOperandBelow2To46() {
        SplittableRandom random = new SplittableRandom(46);
        long[] edges = {0, 1, 2, (1L << 23) - 1, 1L << 23, (1L << 46) - 1, (long) NpbRandom.A, 271828183L};
        for (long x : edges) {
            for (long a : edges) {
                check(x, a);
            }
        }
        for (int i = 0; i < 100_000; i++) {
            check(random.nextLong(1L << 46), random.nextLong(1L << 46));
        }
    }

    private static void check(long x, long a) {
        long expected = BigInteger.valueOf(x).multiply(BigInteger.valueOf(a)).mod(MOD).longValueExact();
        assertEquals((double) expected, NpbRandom.multiplyMod46(x, a), () -> x + " * " + a);
    }
}
