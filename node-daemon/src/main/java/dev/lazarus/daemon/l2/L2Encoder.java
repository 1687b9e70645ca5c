package dev.lazarus.daemon.l2;

import dev.lazarus.daemon.l2.client.SetConnections;
import dev.lazarus.daemon.l2.wire.IdleWatchdog;
import dev.lazarus.daemon.l2.wire.WireLayout;
import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.store.level.l2.L2Scheme;
import dev.lazarus.store.level.l2.ParityFiles;
import dev.lazarus.store.level.l2.ParityManifest;
import dev.lazarus.store.level.l2.PartialFile;
import dev.lazarus.store.level.l2.PayloadTable;
import dev.lazarus.store.level.xor.ColumnRange;
import dev.lazarus.store.level.xor.PayloadSource;
import dev.lazarus.store.level.xor.XorCodec;
import dev.lazarus.store.level.xor.XorSetLayout;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes this node's parity of a version (RAID-5 across the nodes of its XOR set, after SCR): it fetches every
 * member's payload table (their sizes make the {@link XorSetLayout}), streams from every other member the data chunk
 * that belongs in this node's parity, XORs them slice by slice with the store's {@link XorCodec}, and writes the
 * parity and then the parity manifest into this node's L1 version directory. Under {@link L2Scheme#PARTNER} the
 * "parity" is instead a copy of the left neighbour's whole payload. Every member runs this for the version;
 * the members' servers answer each other's requests meanwhile.
 *
 * <p>One encoder is used by one thread at a time: the codec's two slices are reused across versions.
 */
public final class L2Encoder {
    private final L2Context context;
    private final XorCodec codec = new XorCodec();
    private final PartnerCopy copier = new PartnerCopy();

    /** @param context a concluded context with the node list */
    public L2Encoder(L2Context context) {
        this.context = context;
    }

    /**
     * @return what was written; {@link EncodeResult#protectedAtL2()} is false for a set of one node
     * @throws IOException with the job, version and member if this node has no checkpoint of the version, a member
     *                     cannot be reached or has none, or the transfer fails
     */
    public EncodeResult encode(long version) throws IOException {
        long started = System.nanoTime();
        XorSetMembership set = context.membership();
        if (!set.redundant()) {
            return new EncodeResult(version, set, false, 0, 0, System.nanoTime() - started);
        }
        CheckpointDirectory l1 = context.l1();
        if (l1.ranksWithManifest(version).isEmpty()) {
            throw new IOException("cannot encode: no checkpoint of version=" + version + " on this node: dir="
                    + l1.versionDirectory(version));
        }
        String what = "cannot encode: job=" + context.job() + " version=" + version + " " + set;
        try (IdleWatchdog watchdog = IdleWatchdog.start(context.ioTimeoutMillis(), context.log());
             SetConnections peers = SetConnections.open(set.names(), set.addresses(), -1, context.secret(),
                     context.job(), context.connectTimeoutMillis(), watchdog)) {
            peers.requireAll(what);
            List<PayloadTable> tables = new ArrayList<>(set.size());
            for (int m = 0; m < set.size(); m++) {
                try {
                    tables.add(peers.get(m).table(version));
                } catch (IOException e) {
                    throw new IOException(what + ": member " + m + " (" + set.names().get(m) + "): " + e.getMessage(),
                            e);
                }
            }
            XorSetLayout layout = ParityManifest.layoutOf(tables);
            long paritySize = context.scheme().paritySize(layout, set.member());
            int parityCrc = writeParity(l1, version, set.member(), layout, paritySize, peers);
            ParityWork.publishManifest(l1, new ParityManifest(context.scheme(), context.job(), version, set.setId(),
                    set.member(), set.names(), tables, layout.chunkSize(), parityCrc));
            return new EncodeResult(version, set, true, layout.payloadSize(set.member()), paritySize,
                    System.nanoTime() - started);
        }
    }

    /**
     * Streams the parity into place and returns its CRC32C: the XOR of the set's column, or under
     * {@link L2Scheme#PARTNER} a copy of the left neighbour's payload.
     */
    private int writeParity(CheckpointDirectory l1, long version, int self, XorSetLayout layout, long paritySize,
                            SetConnections peers) throws IOException {
        // The old manifest goes first, so that it never describes a parity it was not written for.
        Files.deleteIfExists(ParityFiles.manifest(l1, version));
        try (PartialFile parity = new PartialFile(ParityFiles.parity(l1, version))) {
            if (context.scheme() == L2Scheme.XOR) {
                PayloadSource[] data = ParityWork.remoteSources(peers, self, WireLayout.PAYLOAD_RANGE, version,
                        layout, context.windowBytes(), ColumnRange.whole(layout));
                codec.encodeParity(layout, self, data, parity);
            } else {
                int left = L2Scheme.copiedFrom(self, layout.setSize());
                copier.copy(ParityWork.remoteCopySource(peers, left, WireLayout.PAYLOAD_RANGE, version, paritySize,
                        context.windowBytes(), paritySize), new ColumnRange(0, paritySize), (at, slice) -> parity
                        .write(slice));
            }
            parity.publish();
            return parity.crc32c();
        }
    }
}
