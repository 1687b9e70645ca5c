package dev.lazarus.daemon.l2;

import dev.lazarus.daemon.l2.client.RemotePayloadSource;
import dev.lazarus.daemon.l2.client.SetConnections;
import dev.lazarus.daemon.l2.wire.WireLayout;
import dev.lazarus.store.files.SecureFiles;
import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.store.level.l2.ParityFiles;
import dev.lazarus.store.level.l2.ParityManifest;
import dev.lazarus.store.level.xor.ColumnRange;
import dev.lazarus.store.level.xor.PayloadSource;
import dev.lazarus.store.level.xor.XorSetLayout;

import java.io.IOException;

/** Steps {@link L2Encoder} and {@link L2Rebuilder} share. */
final class ParityWork {
    private ParityWork() {
    }

    /**
     * @param type    {@link WireLayout#PAYLOAD_RANGE} for the members' payloads, {@link WireLayout#PARITY_RANGE} for
     *                their parity
     * @param columns the share of every chunk the caller will read
     * @return by set index, a source streaming {@code type} of the version from every member but {@code self}, whose
     *         slot is null
     */
    static PayloadSource[] remoteSources(SetConnections peers, int self, byte type, long version, XorSetLayout layout,
                                         long windowBytes, ColumnRange columns) {
        PayloadSource[] sources = new PayloadSource[layout.setSize()];
        for (int m = 0; m < sources.length; m++) {
            if (m != self) {
                long size = type == WireLayout.PAYLOAD_RANGE ? layout.payloadSize(m) : layout.chunkSize();
                sources[m] = new RemotePayloadSource(peers.get(m), type, version, size, layout.chunkSize(),
                        windowBytes, columns.end());
            }
        }
        return sources;
    }

    /**
     * @param type     {@link WireLayout#PAYLOAD_RANGE} (a member's payload) or {@link WireLayout#PARITY_RANGE} (its
     *                 partner copy)
     * @param size     bytes of that file
     * @param rangeEnd where the reader's share ends: windows stop there
     * @return one member's file as a source read front to back in windows, for {@link PartnerCopy}
     */
    static PayloadSource remoteCopySource(SetConnections peers, int member, byte type, long version, long size,
                                          long windowBytes, long rangeEnd) {
        // One chunk spanning the file, so that a window never runs past the share into a neighbour worker's bytes.
        return new RemotePayloadSource(peers.get(member), type, version, size, size, windowBytes,
                Math.min(rangeEnd, size));
    }

    /** Writes this member's parity manifest atomically, after its parity: it is what marks the parity complete. */
    static void publishManifest(CheckpointDirectory l1, ParityManifest manifest) throws IOException {
        SecureFiles.writeAtomically(ParityFiles.manifest(l1, manifest.version()), manifest.encode());
    }
}
