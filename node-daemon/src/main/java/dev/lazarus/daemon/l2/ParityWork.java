package dev.lazarus.daemon.l2;

import dev.lazarus.daemon.l2.client.RemotePayloadSource;
import dev.lazarus.daemon.l2.client.SetConnections;
import dev.lazarus.daemon.l2.files.ParityFiles;
import dev.lazarus.daemon.l2.files.ParityManifest;
import dev.lazarus.daemon.l2.wire.WireLayout;
import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.store.level.SecureFiles;
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

    /** Writes this member's parity manifest atomically, after its parity: it is what marks the parity complete. */
    static void publishManifest(CheckpointDirectory l1, ParityManifest manifest) throws IOException {
        SecureFiles.writeAtomically(ParityFiles.manifest(l1, manifest.version()), manifest.encode());
    }
}
