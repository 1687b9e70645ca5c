package dev.lazarus.store.level.xor;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.Channels;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream;

import static dev.lazarus.store.level.xor.XorSetLayoutTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Encode and rebuild in memory, checked byte for byte against the column-XOR definition and the originals. */
class XorCodecTest {
    /** A slice smaller than most chunks and not dividing them, so slices split chunks and end mid-chunk. */
    private static final int SMALL_SLICE = 24;

    /** Payload size of member m in a set of n: the shapes the scheme must handle. */
    private enum Sizes {
        UNEQUAL((n, m) -> 1000 + 37L * m + m % 3),
        SOME_ZERO((n, m) -> m % 2 == 0 ? 0 : 517L * m + 3),
        ALL_ZERO((n, m) -> 0),
        NOT_MULTIPLES_OF_8((n, m) -> 1 + 13L * m),
        ONE_MUCH_LARGER((n, m) -> m == n / 2 ? 100_003 : 11L * m),
        SMALLER_THAN_N((n, m) -> m + 1);

        final MemberSize size;

        Sizes(MemberSize size) {
            this.size = size;
        }

        long[] of(int n) {
            long[] sizes = new long[n];
            for (int m = 0; m < n; m++) {
                sizes[m] = size.of(n, m);
            }
            return sizes;
        }
    }

    @FunctionalInterface
    private interface MemberSize {
        long of(int n, int m);
    }

    static Stream<Arguments> sets() {
        return Stream.of(2, 3, 4, 8).flatMap(n -> Arrays.stream(Sizes.values()).map(s -> Arguments.of(n, s)));
    }

    static byte[][] randomPayloads(long[] sizes, long seed) {
        Random random = new Random(seed);
        byte[][] payloads = new byte[sizes.length][];
        for (int m = 0; m < sizes.length; m++) {
            payloads[m] = new byte[(int) sizes[m]];
            random.nextBytes(payloads[m]);
        }
        return payloads;
    }

    static PayloadSource[] sources(byte[][] bytes) {
        return Arrays.stream(bytes).map(b -> new SegmentPayloadSource(MemorySegment.ofArray(b)))
                .toArray(PayloadSource[]::new);
    }

    /**
     * Parity straight from SCR's definition, without the layout's mapping methods: member m's logical payload has a
     * zero chunk inserted at position m, and parity h is the XOR of position h across all members.
     */
    static byte[] referenceParity(XorSetLayout layout, byte[][] payloads, int holder) {
        int chunk = (int) layout.chunkSize();
        byte[] parity = new byte[chunk];
        for (int m = 0; m < payloads.length; m++) {
            if (m == holder) {
                continue;
            }
            int dataChunk = holder < m ? holder : holder - 1;
            for (int i = 0; i < chunk; i++) {
                int at = dataChunk * chunk + i;
                parity[i] ^= at < payloads[m].length ? payloads[m][at] : 0;
            }
        }
        return parity;
    }

    static byte[] encode(XorCodec codec, XorSetLayout layout, int holder, PayloadSource[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        codec.encodeParity(layout, holder, data, Channels.newChannel(out));
        return out.toByteArray();
    }

    @ParameterizedTest(name = "n={0} sizes={1}")
    @MethodSource("sets")
    void encodesTheColumnXorAndRebuildsEveryLostMemberExactly(int n, Sizes shape) throws IOException {
        long[] sizes = shape.of(n);
        XorSetLayout layout = XorSetLayout.of(sizes);
        byte[][] payloads = randomPayloads(sizes, 42L * n + shape.ordinal());
        for (XorCodec codec : new XorCodec[] {new XorCodec(SMALL_SLICE), new XorCodec()}) {
            PayloadSource[] data = sources(payloads);
            byte[][] parities = new byte[n][];
            for (int h = 0; h < n; h++) {
                parities[h] = encode(codec, layout, h, data);
                assertArrayEquals(referenceParity(layout, payloads, h), parities[h], "parity of holder=" + h);
            }
            PayloadSource[] parity = sources(parities);
            for (int lost = 0; lost < n; lost++) {
                PayloadSource[] survivors = data.clone();
                survivors[lost] = null;
                PayloadSource[] survivingParity = parity.clone();
                survivingParity[lost] = null;
                ByteArrayOutputStream dataOut = new ByteArrayOutputStream();
                ByteArrayOutputStream parityOut = new ByteArrayOutputStream();
                codec.rebuild(layout, lost, survivors, survivingParity, Channels.newChannel(dataOut),
                        Channels.newChannel(parityOut));
                assertArrayEquals(payloads[lost], dataOut.toByteArray(), "data of lost=" + lost);
                assertArrayEquals(parities[lost], parityOut.toByteArray(), "parity of lost=" + lost);
            }
        }
    }

    @Test
    void aCorruptParityByteCorruptsExactlyTheRebuiltByteItCovers() throws IOException {
        long[] sizes = {1000, 1000, 1000, 1000};
        XorSetLayout layout = XorSetLayout.of(sizes);
        byte[][] payloads = randomPayloads(sizes, 5);
        XorCodec codec = new XorCodec(SMALL_SLICE);
        byte[][] parities = new byte[4][];
        for (int h = 0; h < 4; h++) {
            parities[h] = encode(codec, layout, h, sources(payloads));
        }
        parities[2][17] ^= 0x5A;
        // Member 0's chunk 1 is folded into member 2's parity, so its byte chunkOffset(1) + 17 is rebuilt wrong.
        assertEquals(2, layout.parityHolder(0, 1));
        byte[] expected = payloads[0].clone();
        expected[(int) layout.chunkOffset(1) + 17] ^= 0x5A;
        assertArrayEquals(expected, rebuildData(codec, layout, 0, payloads, parities));
        // Member 2's own parity is never read when member 2 is lost.
        assertArrayEquals(payloads[2], rebuildData(codec, layout, 2, payloads, parities));
    }

    private static byte[] rebuildData(XorCodec codec, XorSetLayout layout, int lost, byte[][] payloads,
                                      byte[][] parities) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        codec.rebuildData(layout, lost, sources(payloads), sources(parities), Channels.newChannel(out));
        return out.toByteArray();
    }

    @Test
    void misuseIsRejectedWithContext() {
        assertMessage("slice size must be a positive multiple of 8: sliceBytes=12", () -> new XorCodec(12));
        assertMessage("slice size must be a positive multiple of 8: sliceBytes=0", () -> new XorCodec(0));
        XorSetLayout layout = XorSetLayout.of(10, 20, 30);
        XorCodec codec = new XorCodec(SMALL_SLICE);
        PayloadSource[] data = sources(new byte[][] {new byte[10], new byte[20], new byte[30]});
        PayloadSource[] parity = sources(new byte[][] {new byte[16], new byte[16], new byte[16]});
        var sink = Channels.newChannel(new ByteArrayOutputStream());
        assertMessage("member out of range: member=3 setSize=3", () -> codec.encodeParity(layout, 3, data, sink));
        assertMessage("sources do not match set size: setSize=3 data=2 parity=none",
                () -> codec.encodeParity(layout, 0, Arrays.copyOf(data, 2), sink));
        assertMessage("sources do not match set size: setSize=3 data=3 parity=4",
                () -> codec.rebuildData(layout, 0, data, Arrays.copyOf(parity, 4), sink));
        PayloadSource[] missing = data.clone();
        missing[1] = null;
        assertMessage("missing source: kind=data member=1", () -> codec.encodeParity(layout, 0, missing, sink));
        PayloadSource[] wrongSize = data.clone();
        wrongSize[2] = new SegmentPayloadSource(MemorySegment.ofArray(new byte[31]));
        assertMessage("source size differs from layout: kind=data member=2 layoutSize=30 sourceSize=31",
                () -> codec.encodeParity(layout, 0, wrongSize, sink));
        PayloadSource[] shortParity = parity.clone();
        shortParity[1] = new SegmentPayloadSource(MemorySegment.ofArray(new byte[8]));
        assertMessage("source size differs from layout: kind=parity member=1 layoutSize=16 sourceSize=8",
                () -> codec.rebuildData(layout, 0, data, shortParity, sink));
    }
}
