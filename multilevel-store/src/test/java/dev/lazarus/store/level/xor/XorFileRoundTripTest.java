package dev.lazarus.store.level.xor;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.TRUNCATE_EXISTING;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * Eight members on disk, several MiB each, with the default 1 MiB slices: every parity file is encoded through file
 * channels, then each member is deleted in turn and rebuilt from the other files. Not timed.
 */
class XorFileRoundTripTest {
    @TempDir
    Path dir;

    @Test
    void eightMembersOnDiskSurviveTheLossOfAnyOne() throws IOException {
        long[] sizes = {3_000_001, 2_999_999, 0, 3_145_728, 1_048_583, 7_340_033, 5, 2_500_000};
        int n = sizes.length;
        XorSetLayout layout = XorSetLayout.of(sizes);
        byte[][] payloads = XorCodecTest.randomPayloads(sizes, 2024);
        Path[] dataFiles = new Path[n];
        Path[] parityFiles = new Path[n];
        for (int m = 0; m < n; m++) {
            dataFiles[m] = Files.write(dir.resolve("rank_" + m + ".ckpt"), payloads[m]);
            parityFiles[m] = dir.resolve((m + 1) + "_of_" + n + ".xor");
        }
        XorCodec codec = new XorCodec();
        try (Members members = new Members(dataFiles)) {
            for (int h = 0; h < n; h++) {
                try (FileChannel out = FileChannel.open(parityFiles[h], WRITE, CREATE, TRUNCATE_EXISTING)) {
                    codec.encodeParity(layout, h, members.sources(), out);
                }
                assertArrayEquals(XorCodecTest.referenceParity(layout, payloads, h), Files.readAllBytes(parityFiles[h]),
                        "parity of holder=" + h);
            }
        }
        byte[][] parities = new byte[n][];
        for (int h = 0; h < n; h++) {
            parities[h] = Files.readAllBytes(parityFiles[h]);
        }
        for (int lost = 0; lost < n; lost++) {
            Files.delete(dataFiles[lost]);
            Files.delete(parityFiles[lost]);
            try (Members data = new Members(dataFiles); Members parity = new Members(parityFiles);
                 FileChannel dataOut = FileChannel.open(dataFiles[lost], WRITE, CREATE);
                 FileChannel parityOut = FileChannel.open(parityFiles[lost], WRITE, CREATE)) {
                codec.rebuild(layout, lost, data.sources(), parity.sources(), dataOut, parityOut);
            }
            assertArrayEquals(payloads[lost], Files.readAllBytes(dataFiles[lost]), "data of lost=" + lost);
            assertArrayEquals(parities[lost], Files.readAllBytes(parityFiles[lost]), "parity of lost=" + lost);
        }
    }

    @Test
    void aPayloadOfSeveralFilesIsEncodedAsTheirConcatenation() throws IOException {
        byte[][] payloads = XorCodecTest.randomPayloads(new long[] {5000, 3001, 4444}, 11);
        XorSetLayout layout = XorSetLayout.of(payloads[0].length, payloads[1].length, payloads[2].length);
        // Member 1's payload is two files: 1000 bytes and the rest.
        Path head = Files.write(dir.resolve("head"), java.util.Arrays.copyOfRange(payloads[1], 0, 1000));
        Path tail = Files.write(dir.resolve("tail"), java.util.Arrays.copyOfRange(payloads[1], 1000, 3001));
        try (FileChannel h = FileChannel.open(head); FileChannel t = FileChannel.open(tail)) {
            PayloadSource[] data = XorCodecTest.sources(payloads);
            data[1] = new ConcatenatedPayloadSource(List.of(new FileChannelPayloadSource(h),
                    new FileChannelPayloadSource(t)));
            for (int holder = 0; holder < 3; holder++) {
                assertArrayEquals(XorCodecTest.referenceParity(layout, payloads, holder),
                        XorCodecTest.encode(new XorCodec(64), layout, holder, data), "holder=" + holder);
            }
        }
    }

    /** Read channels for whichever of the files exist; a missing file is a lost member's null source. */
    private static final class Members implements AutoCloseable {
        private final FileChannel[] channels;
        private final PayloadSource[] sources;

        Members(Path[] files) throws IOException {
            channels = new FileChannel[files.length];
            sources = new PayloadSource[files.length];
            for (int m = 0; m < files.length; m++) {
                if (Files.exists(files[m])) {
                    channels[m] = FileChannel.open(files[m], READ);
                    sources[m] = new FileChannelPayloadSource(channels[m]);
                }
            }
        }

        PayloadSource[] sources() {
            return sources;
        }

        @Override
        public void close() throws IOException {
            for (FileChannel channel : channels) {
                if (channel != null) {
                    channel.close();
                }
            }
        }
    }
}
