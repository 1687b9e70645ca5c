package dev.lazarus.store.level.l2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.lazarus.store.CorruptCheckpointException;
import dev.lazarus.store.level.xor.XorSetLayout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class ParityManifestTest {

    private static PayloadTable table(int firstRank, long... sizes) {
        PayloadFile[] files = new PayloadFile[sizes.length];
        for (int i = 0; i < sizes.length; i++) {
            files[i] = new PayloadFile(firstRank + i / 2, i % 2 == 0 ? FileKind.MANIFEST : FileKind.DATA, sizes[i],
                    0x1000 * i + firstRank);
        }
        return new PayloadTable(List.of(files));
    }

    private static ParityManifest manifest() {
        return manifest(L2Scheme.XOR);
    }

    private static ParityManifest manifest(L2Scheme scheme) {
        List<PayloadTable> tables = List.of(table(0, 300, 5000, 310, 7000), table(2, 290, 100_000, 300, 0),
                table(4, 400, 12_345));
        long chunk = XorSetLayout.of(12_610, 100_590, 12_745).chunkSize();
        return new ParityManifest(scheme, "job-1", 42, 3, 1, List.of("10.0.0.1:7000", "10.0.0.2:7000", "[::1]:7000"),
                tables, chunk, 0xCAFE);
    }

    @Test
    void roundTripsEveryField() throws CorruptCheckpointException {
        ParityManifest manifest = manifest();
        ParityManifest decoded = ParityManifest.decode(manifest.encode(), "test");
        assertEquals(manifest, decoded);
        assertEquals(100_590, decoded.layout().payloadSize(1));
        assertEquals(List.of(2, 3), decoded.tables().get(1).ranks());
        assertEquals(null, manifest.differenceFrom(decoded));
        assertEquals(L2Scheme.XOR, decoded.scheme());
        assertEquals(decoded.chunkSize(), decoded.paritySize());
    }

    /** Member 1 of a partner set stores member 0's payload: 300 + 5000 + 310 + 7000 bytes. */
    @Test
    void aPartnerManifestRoundTripsAndItsParityIsTheLeftNeighboursPayload() throws CorruptCheckpointException {
        ParityManifest partner = manifest(L2Scheme.PARTNER);
        byte[] bytes = partner.encode();
        assertEquals(1, ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN)
                .getShort(ParityManifestLayout.SCHEME_OFFSET));
        ParityManifest decoded = ParityManifest.decode(bytes, "test");
        assertEquals(partner, decoded);
        assertEquals(12_610, decoded.paritySize());
        assertEquals("scheme partner vs xor", decoded.differenceFrom(manifest()));
    }

    @Test
    void anUnknownSchemeIsRejected() {
        byte[] bytes = manifest().encode();
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putShort(ParityManifestLayout.SCHEME_OFFSET, (short) 7);
        resign(bytes);
        assertEquals("m: scheme=7 unknown", assertThrows(CorruptCheckpointException.class,
                () -> ParityManifest.decode(bytes, "m")).getMessage());
    }

    @Test
    void damageIsReportedWithTheReason() {
        byte[] bytes = manifest().encode();
        bytes[60] ^= 1;
        assertEquals("m: checksum mismatch", assertThrows(CorruptCheckpointException.class,
                () -> ParityManifest.decode(bytes, "m")).getMessage());
        byte[] truncated = Arrays.copyOf(manifest().encode(), 200);
        assertEquals("m: length=200 but header says " + manifest().encode().length, assertThrows(
                CorruptCheckpointException.class, () -> ParityManifest.decode(truncated, "m")).getMessage());
        assertEquals("m: size=3 outside 52..16777216", assertThrows(CorruptCheckpointException.class,
                () -> ParityManifest.decode(new byte[3], "m")).getMessage());
    }

    @Test
    void countsAreBoundedByTheBytesThatRemainEvenWithAValidChecksum() {
        byte[] bytes = manifest().encode();
        // Member 0's file count sits after the header, the job id, its address and its payload size.
        int count = ParityManifestLayout.HEADER_BYTES + "job-1".length() + 2 + "10.0.0.1:7000".length() + 8;
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(count, -1);
        resign(bytes);
        assertEquals("m: member 0: file count=4294967295 exceeds the " + (bytes.length - 4 - count - 4)
                + " bytes left", assertThrows(CorruptCheckpointException.class,
                () -> ParityManifest.decode(bytes, "m")).getMessage());
    }

    @Test
    void aSetSizeOutsideTheLayoutsRangeIsRejected() {
        byte[] bytes = manifest().encode();
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putShort(ParityManifestLayout.SET_SIZE_OFFSET,
                (short) 1000);
        resign(bytes);
        assertEquals("m: setSize=1000 member=1 invalid", assertThrows(CorruptCheckpointException.class,
                () -> ParityManifest.decode(bytes, "m")).getMessage());
    }

    private static void resign(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(bytes.length - 4, (int) crc.getValue());
    }

    @Test
    void tablesMustBeInPayloadOrder() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new PayloadTable(List.of(
                new PayloadFile(3, FileKind.DATA, 1, 0), new PayloadFile(3, FileKind.MANIFEST, 1, 0))));
        assertEquals("payload table invalid: file 0 (rank-3.data, rank-3.manifest) out of payload order",
                e.getMessage());
    }

    @Test
    void addressesAreOneLineOfPrintableAscii() {
        ParityManifest good = manifest();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ParityManifest(L2Scheme.XOR,
                "job-1", 42, 3, 1, List.of("a:1", "b:1\nrm -rf /", "c:1"), good.tables(), good.chunkSize(), 0));
        assertEquals("member address invalid, must be 1 to 255 printable ASCII characters: member=1", e.getMessage());
    }
}
