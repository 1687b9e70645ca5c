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
import dev.lazarus.store.level.l2.RankFileSplitter;
import dev.lazarus.store.level.xor.ColumnRange;
import dev.lazarus.store.level.xor.PayloadSource;
import dev.lazarus.store.level.xor.SliceSink;
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
 * receiving n-1 times the payload is what limits a rebuild, and the node's ranks wait for it. Under
 * {@link L2Scheme#PARTNER} (as the survivors' manifests say) the rank files come from the copy on the right
 * neighbour instead, one payload's worth, and the parity is a fresh copy of the left neighbour's payload.
 *
 * <p>One rebuilder is used by one thread at a time.
 */
public final class L2Rebuilder {
    /** The smallest worker's share of a chunk: below it, a worker's connections and requests cost more than it saves. */
    private static final long MIN_SHARE_BYTES = 64 << 10;

    private final L2Context context;
    private final List<XorCodec> codecs = new ArrayList<>();
    private final List<PartnerCopy> copiers = new ArrayList<>();

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
            ParityManifest reference = survivorsManifest(version, set, peers, withParity);
            XorSetLayout layout = reference.layout();
            PayloadTable table = reference.tables().get(self);
            boolean created = !Files.isDirectory(l1.versionDirectory(version));
            l1.createVersion(version);
            boolean done = false;
            try {
                OptionalInt parityCrc = restore(l1, version, set, reference, peers, watchdog, withParity);
                if (parityCrc.isPresent()) {
                    ParityWork.publishManifest(l1, new ParityManifest(reference.scheme(), context.job(), version,
                            set.setId(), self, set.names(), reference.tables(), layout.chunkSize(),
                            parityCrc.getAsInt()));
                }
                done = true;
            } finally {
                if (!done && created) {
                    deleteIfEmpty(l1.versionDirectory(version));
                }
            }
            return new RebuildResult(version, set, table.ranks(), table.payloadSize(),
                    withParity ? reference.scheme().paritySize(layout, self) : 0, System.nanoTime() - started);
        }
    }

    /**
     * Fetches every reachable survivor's parity manifest and checks they describe the same set. Which survivors must
     * have one depends on the scheme they name: under XOR all of them (a survivor without one counts as lost), under
     * PARTNER the right neighbour, which holds this node's copy, and for the parity also the left neighbour, whose
     * payload this node copies.
     */
    private ParityManifest survivorsManifest(long version, XorSetMembership set, SetConnections peers,
                                             boolean withParity) throws IOException {
        ParityManifest[] manifests = new ParityManifest[set.size()];
        ParityManifest reference = null;
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
                reference = reference == null ? manifest : reference;
            } catch (IOException e) {
                peers.fail(m, e.getMessage());
            }
        }
        List<Integer> needed = reference == null ? List.of() : needed(reference.scheme(), set, withParity);
        List<String> lost = new ArrayList<>();
        for (int m = 0; m < set.size(); m++) {
            if (m == set.member()) {
                lost.add(m + " (this node)");
            } else if (manifests[m] == null && (reference == null || needed.contains(m))) {
                lost.add(m + " (" + set.names().get(m) + ": " + peers.failure(m) + ")");
            }
        }
        if (reference == null || lost.size() > 1) {
            String scheme = reference == null ? "" : reference.scheme() == L2Scheme.PARTNER
                    ? " (partner scheme: this node's copy is on member " + L2Scheme.partnerOf(set.member(), set.size())
                    + ")" : "";
            throw unrecoverable(version, set, lost.size() + " members lost" + scheme + ": " + lost);
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

    /** @return the survivors a rebuild under {@code scheme} reads from */
    private static List<Integer> needed(L2Scheme scheme, XorSetMembership set, boolean withParity) {
        int self = set.member();
        if (scheme == L2Scheme.XOR) {
            List<Integer> others = new ArrayList<>();
            for (int m = 0; m < set.size(); m++) {
                if (m != self) {
                    others.add(m);
                }
            }
            return others;
        }
        int right = L2Scheme.partnerOf(self, set.size());
        int left = L2Scheme.copiedFrom(self, set.size());
        return withParity && left != right ? List.of(right, left) : List.of(right);
    }

    /**
     * Rebuilds the rank files and, if asked, this node's parity, publishing them only if every file checks out. Each
     * worker takes one {@link ColumnRange} of the work (of every chunk under XOR, of the copied payloads under
     * PARTNER), with a codec and connections of its own.
     *
     * @return the parity's CRC32C, or empty without parity
     */
    private OptionalInt restore(CheckpointDirectory l1, long version, XorSetMembership set,
                                ParityManifest reference, SetConnections peers, IdleWatchdog watchdog,
                                boolean withParity) throws IOException {
        XorSetLayout layout = reference.layout();
        PayloadTable table = reference.tables().get(set.member());
        List<Integer> needed = needed(reference.scheme(), set, withParity);
        List<SetConnections> connections = new ArrayList<>(List.of(peers));
        try (RankFileSplitter files = new RankFileSplitter(l1, version, table);
             PartialFile parityOut = withParity ? new PartialFile(ParityFiles.parity(l1, version)) : null) {
            SliceSink parity = parityOut == null ? null : parityOut::writeAt;
            RebuildWork work = reference.scheme() == L2Scheme.XOR
                    ? xorWork(layout, set.member(), version, files, parity)
                    : partnerWork(layout, set.member(), version, files, parity);
            try {
                while (connections.size() < work.workers()) {
                    SetConnections more = SetConnections.open(set.names(), set.addresses(), needed::contains,
                            context.secret(), context.job(), context.connectTimeoutMillis(), watchdog);
                    connections.add(more);
                    more.requireAll("cannot open rebuild connections to the survivors");
                }
                ParallelWorkers.run("l2-rebuild", work.workers(), worker -> work.run(worker,
                        connections.get(worker)), () -> connections.forEach(SetConnections::close));
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

    /** A rebuild split among workers: how many, and what worker {@code w} does over its own connections. */
    private interface RebuildWork {
        int workers();

        void run(int worker, SetConnections connections) throws IOException;
    }

    /** XOR: each worker rebuilds one column range of every chunk from the survivors' data and parity. */
    private RebuildWork xorWork(XorSetLayout layout, int self, long version, SliceSink files, SliceSink parity) {
        List<ColumnRange> shares = ColumnRange.split(layout, context.rebuildWorkers(), MIN_SHARE_BYTES);
        return new RebuildWork() {
            @Override
            public int workers() {
                return shares.size();
            }

            @Override
            public void run(int worker, SetConnections mine) throws IOException {
                ColumnRange share = shares.get(worker);
                PayloadSource[] data = ParityWork.remoteSources(mine, self, WireLayout.PAYLOAD_RANGE, version,
                        layout, context.windowBytes(), share);
                PayloadSource[] parityChunks = ParityWork.remoteSources(mine, self, WireLayout.PARITY_RANGE,
                        version, layout, context.windowBytes(), share);
                XorCodec codec = codec(worker);
                codec.rebuildData(layout, self, data, parityChunks, share, files);
                if (parity != null) {
                    codec.encodeParity(layout, self, data, share, parity);
                }
            }
        };
    }

    /**
     * PARTNER: each worker fetches one range of this node's copy from the right neighbour and, for the parity, one
     * range of the left neighbour's payload.
     */
    private RebuildWork partnerWork(XorSetLayout layout, int self, long version, SliceSink files, SliceSink parity) {
        int right = L2Scheme.partnerOf(self, layout.setSize());
        int left = L2Scheme.copiedFrom(self, layout.setSize());
        long size = layout.payloadSize(self);
        long leftSize = layout.payloadSize(left);
        List<ColumnRange> dataShares = ColumnRange.split(size, context.rebuildWorkers(), MIN_SHARE_BYTES);
        List<ColumnRange> parityShares = parity == null ? List.of()
                : ColumnRange.split(leftSize, context.rebuildWorkers(), MIN_SHARE_BYTES);
        return new RebuildWork() {
            @Override
            public int workers() {
                return Math.max(dataShares.size(), parityShares.size());
            }

            @Override
            public void run(int worker, SetConnections mine) throws IOException {
                PartnerCopy copier = copier(worker);
                if (worker < dataShares.size()) {
                    ColumnRange share = dataShares.get(worker);
                    copier.copy(ParityWork.remoteCopySource(mine, right, WireLayout.PARITY_RANGE, version, size,
                            context.windowBytes(), share.end()), share, files);
                }
                if (worker < parityShares.size()) {
                    ColumnRange share = parityShares.get(worker);
                    copier.copy(ParityWork.remoteCopySource(mine, left, WireLayout.PAYLOAD_RANGE, version, leftSize,
                            context.windowBytes(), share.end()), share, parity);
                }
            }
        };
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

    /** @return worker {@code worker}'s copier, kept for later rebuilds */
    private PartnerCopy copier(int worker) {
        synchronized (copiers) {
            while (copiers.size() <= worker) {
                copiers.add(new PartnerCopy());
            }
            return copiers.get(worker);
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
