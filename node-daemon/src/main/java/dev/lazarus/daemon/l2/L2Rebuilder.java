package dev.lazarus.daemon.l2;

import dev.lazarus.daemon.l2.client.SetConnections;
import dev.lazarus.daemon.l2.files.ParityFiles;
import dev.lazarus.daemon.l2.files.ParityManifest;
import dev.lazarus.daemon.l2.files.PartialFile;
import dev.lazarus.daemon.l2.files.PayloadTable;
import dev.lazarus.daemon.l2.files.RankFileSplitter;
import dev.lazarus.daemon.l2.wire.IdleWatchdog;
import dev.lazarus.daemon.l2.wire.WireLayout;
import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.store.level.xor.ColumnRange;
import dev.lazarus.store.level.xor.PayloadSource;
import dev.lazarus.store.level.xor.XorCodec;
import dev.lazarus.store.level.xor.XorSetLayout;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * Rebuilds this node's files of a version after it lost them (a replacement node with an empty L1): any survivor's
 * parity manifest gives the set's layout and this node's file table; the lost payload is reconstructed with the
 * store's {@link XorCodec} from the survivors' data chunks and parity streamed over the network, split back into the
 * rank files, and each file's CRC32C is checked before anything is published (data files first, manifests last).
 * {@link #rebuild} recomputes this node's parity and parity manifest too, so the set is whole again;
 * {@link #rebuildData} restores the rank files alone, for a restart that must not wait for the parity: it receives
 * n-1 times the payload instead of n times, and the parity is re-encoded afterwards with {@link L2Encoder}. Several
 * workers share the work ({@link L2Context#rebuildWorkers}), each one slice of every chunk column: a single thread
 * receiving n-1 times the payload is what limits a rebuild, and the node's ranks wait for it.
 *
 * <p>One rebuilder is used by one thread at a time.
 */
public final class L2Rebuilder {
    /** The smallest worker's share of a chunk: below it, a worker's connections and requests cost more than it saves. */
    private static final long MIN_SHARE_BYTES = 64 << 10;

    private final L2Context context;
    private final List<XorCodec> codecs = new ArrayList<>();

    /** @param context a concluded context with the node list */
    public L2Rebuilder(L2Context context) {
        this.context = context;
    }

    /**
     * Restores this node's rank files of {@code version} and its parity of it, so the set is whole again.
     *
     * @return what was restored
     * @throws UnrecoverableAtL2Exception if another member of the set is lost too (unreachable, or without the
     *                                    version's parity), the set has one member, the survivors disagree, or a
     *                                    rebuilt file fails its CRC32C
     * @throws IOException                if this node already holds rank files of the version, or a transfer fails
     */
    public RebuildResult rebuild(long version) throws IOException {
        return rebuild(version, true);
    }

    /**
     * Restores this node's rank files of {@code version} only. Until this node's parity of the version is encoded
     * again ({@link L2Encoder#encode}), a second loss in the set cannot be rebuilt from L2 at that version.
     *
     * @return what was restored, with no parity bytes
     * @throws UnrecoverableAtL2Exception as {@link #rebuild}
     * @throws IOException                as {@link #rebuild}
     */
    public RebuildResult rebuildData(long version) throws IOException {
        return rebuild(version, false);
    }

    private RebuildResult rebuild(long version, boolean withParity) throws IOException {
        long started = System.nanoTime();
        XorSetMembership set = context.membership();
        int self = set.member();
        if (!set.redundant()) {
            throw unrecoverable(version, set, "the set has one member, so no parity of it exists");
        }
        CheckpointDirectory l1 = context.l1();
        List<Integer> present = l1.ranksWithManifest(version);
        if (!present.isEmpty()) {
            throw new IOException("refusing to rebuild over an existing checkpoint: version=" + version + " ranks="
                    + present + " dir=" + l1.versionDirectory(version) + " (delete the version first)");
        }
        try (IdleWatchdog watchdog = IdleWatchdog.start(context.ioTimeoutMillis(), context.log());
             SetConnections peers = SetConnections.open(set.names(), set.addresses(), self, context.secret(),
                     context.job(), context.connectTimeoutMillis(), watchdog)) {
            ParityManifest reference = survivorsManifest(version, set, peers);
            XorSetLayout layout = reference.layout();
            PayloadTable table = reference.tables().get(self);
            boolean created = !Files.isDirectory(l1.versionDirectory(version));
            l1.createVersion(version);
            boolean done = false;
            try {
                OptionalInt parityCrc = restore(l1, version, set, layout, table, peers, watchdog, withParity);
                if (parityCrc.isPresent()) {
                    ParityWork.publishManifest(l1, new ParityManifest(context.job(), version, set.setId(), self,
                            set.names(), reference.tables(), layout.chunkSize(), parityCrc.getAsInt()));
                }
                done = true;
            } finally {
                if (!done && created) {
                    deleteIfEmpty(l1.versionDirectory(version));
                }
            }
            return new RebuildResult(version, set, table.ranks(), table.payloadSize(),
                    withParity ? layout.chunkSize() : 0, System.nanoTime() - started);
        }
    }

    /**
     * Fetches every survivor's parity manifest and checks they describe the same set; a survivor without one counts
     * as lost.
     */
    private ParityManifest survivorsManifest(long version, XorSetMembership set, SetConnections peers)
            throws IOException {
        ParityManifest[] manifests = new ParityManifest[set.size()];
        for (int m = 0; m < set.size(); m++) {
            if (m == set.member() || peers.get(m) == null) {
                continue;
            }
            try {
                ParityManifest manifest = ParityManifest.decode(peers.get(m).parityManifest(version),
                        "parity manifest of member " + m);
                if (manifest.member() != m || manifest.setId() != set.setId() || manifest.setSize() != set.size()
                        || manifest.version() != version || !manifest.job().equals(context.job())) {
                    throw new IOException("parity manifest is of set=" + manifest.setId() + " member="
                            + manifest.member() + " of " + manifest.setSize() + " version=" + manifest.version());
                }
                manifests[m] = manifest;
            } catch (IOException e) {
                peers.fail(m, e.getMessage());
            }
        }
        List<String> lost = new ArrayList<>();
        ParityManifest reference = null;
        for (int m = 0; m < set.size(); m++) {
            if (m == set.member()) {
                lost.add(m + " (this node)");
            } else if (manifests[m] == null) {
                lost.add(m + " (" + set.names().get(m) + ": " + peers.failure(m) + ")");
            } else if (reference == null) {
                reference = manifests[m];
            }
        }
        if (lost.size() > 1) {
            throw unrecoverable(version, set, lost.size() + " members lost: " + lost);
        }
        for (ParityManifest manifest : manifests) {
            String difference = manifest == null ? null : reference.differenceFrom(manifest);
            if (difference != null) {
                throw unrecoverable(version, set, "survivors' parity manifests disagree: member " + manifest.member()
                        + " vs member " + reference.member() + ": " + difference);
            }
        }
        return reference;
    }

    /**
     * Rebuilds the rank files and, if asked, this node's parity, publishing them only if every file checks out. Each
     * worker takes one {@link ColumnRange} of every chunk, with a codec and connections of its own.
     *
     * @return the parity's CRC32C, or empty without parity
     */
    private OptionalInt restore(CheckpointDirectory l1, long version, XorSetMembership set, XorSetLayout layout,
                                PayloadTable table, SetConnections peers, IdleWatchdog watchdog, boolean withParity)
            throws IOException {
        List<ColumnRange> shares = ColumnRange.split(layout, context.rebuildWorkers(), MIN_SHARE_BYTES);
        List<SetConnections> connections = new ArrayList<>(List.of(peers));
        try (RankFileSplitter files = new RankFileSplitter(l1, version, table);
             PartialFile parityOut = withParity ? new PartialFile(ParityFiles.parity(l1, version)) : null) {
            try {
                while (connections.size() < shares.size()) {
                    SetConnections more = SetConnections.open(set.names(), set.addresses(), set.member(),
                            context.secret(), context.job(), context.connectTimeoutMillis(), watchdog);
                    connections.add(more);
                    more.requireAll("cannot open rebuild connections to the survivors");
                }
                ParallelWorkers.run("l2-rebuild", shares.size(), worker -> {
                    ColumnRange share = shares.get(worker);
                    SetConnections mine = connections.get(worker);
                    PayloadSource[] data = ParityWork.remoteSources(mine, set.member(), WireLayout.PAYLOAD_RANGE,
                            version, layout, context.windowBytes(), share);
                    PayloadSource[] parity = ParityWork.remoteSources(mine, set.member(), WireLayout.PARITY_RANGE,
                            version, layout, context.windowBytes(), share);
                    XorCodec codec = codec(worker);
                    codec.rebuildData(layout, set.member(), data, parity, share, files);
                    if (parityOut != null) {
                        codec.encodeParity(layout, set.member(), data, share, parityOut::writeAt);
                    }
                }, () -> connections.forEach(SetConnections::close));
            } finally {
                connections.subList(1, connections.size()).forEach(SetConnections::close);
            }
            List<String> bad = files.verify();
            if (!bad.isEmpty()) {
                throw unrecoverable(version, set, "rebuilt files fail their CRC32C, a survivor's data or parity is"
                        + " damaged; nothing was published: " + bad);
            }
            files.publish();
            if (parityOut == null) {
                return OptionalInt.empty();
            }
            parityOut.publish();
            return OptionalInt.of(parityOut.crc32c());
        }
    }

    /** @return worker {@code worker}'s codec, kept for later rebuilds (each holds two native slices) */
    private XorCodec codec(int worker) {
        synchronized (codecs) {
            while (codecs.size() <= worker) {
                codecs.add(new XorCodec());
            }
            return codecs.get(worker);
        }
    }

    private UnrecoverableAtL2Exception unrecoverable(long version, XorSetMembership set, String reason) {
        return new UnrecoverableAtL2Exception(context.job(), version, set.setId(), reason);
    }

    private static void deleteIfEmpty(Path directory) {
        try {
            Files.deleteIfExists(directory);
        } catch (DirectoryNotEmptyException e) {
            // Someone else's files: leave them.
        } catch (IOException e) {
            // Best effort: an empty version directory is reported by the catalog as incomplete, never used.
        }
    }
}
