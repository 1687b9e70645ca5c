package dev.lazarus.daemon.embedded;

import dev.lazarus.daemon.L2Membership;
import dev.lazarus.daemon.NodeDaemon;
import dev.lazarus.daemon.NodeDaemonConfig;
import dev.lazarus.daemon.RebuildOutcome;
import dev.lazarus.daemon.l2.EncodeResult;
import dev.lazarus.daemon.l2.Endpoints;
import dev.lazarus.daemon.l2.L2Context;
import dev.lazarus.daemon.l2.L2Encoder;
import dev.lazarus.daemon.l2.L2Rebuilder;
import dev.lazarus.daemon.l2.L2Server;
import dev.lazarus.daemon.l2.XorSetMembership;
import dev.lazarus.store.catalog.Catalog;
import dev.lazarus.store.catalog.VersionStatus;
import dev.lazarus.store.drain.ChainComposer;
import dev.lazarus.store.files.SecureFiles;
import dev.lazarus.store.format.ManifestFiles;
import dev.lazarus.store.format.RankManifest;
import dev.lazarus.store.incremental.ChainRestorer;
import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.store.level.l2.ParityFiles;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The node daemon on threads of the node's leader rank: the L2 service (serving this node's L1 files to its set) on a
 * thread of its own from {@link #start}, encoding, draining to L3 and rebuilding on the caller's thread. Everything it
 * reads and writes is in the node's L1 directory of the job, and the job's directory on L3.
 */
public final class EmbeddedNodeDaemon implements NodeDaemon {
    /** How long the service must go unused before it stops. */
    private static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(300);

    private final NodeDaemonConfig config;
    private final CheckpointDirectory l1;
    private final L2Server server;
    private final String endpoint;
    /** The encoding and rebuilding context, once the node list is known. */
    private L2Context work;

    private EmbeddedNodeDaemon(NodeDaemonConfig config, L2Server server, String endpoint) {
        this.config = config;
        this.l1 = new CheckpointDirectory(config.l1Root(), config.job());
        this.server = server;
        this.endpoint = endpoint;
    }

    /**
     * Starts the node's L2 service on an ephemeral port of {@code config.bindHost()}.
     *
     * @throws IOException              if the address does not resolve or the service cannot listen
     * @throws IllegalArgumentException if a setting is unusable (secret file, set size, wildcard address)
     */
    public static EmbeddedNodeDaemon start(NodeDaemonConfig config) throws IOException {
        L2Context serving = context(config).bind(Endpoints.format(
                new InetSocketAddress(InetAddress.getByName(config.bindHost()), 0))).conclude();
        L2Server server = L2Server.start(serving);
        try {
            return new EmbeddedNodeDaemon(config, server, Endpoints.format(server.address()));
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    private static L2Context context(NodeDaemonConfig config) {
        return new L2Context().job(config.job()).l1Root(config.l1Root()).secretFile(config.secretFile())
                .setSize(config.setSize()).scheme(config.scheme()).log(config.log());
    }

    @Override
    public String l2Endpoint() {
        return endpoint;
    }

    @Override
    public L2Membership joinL2(List<String> endpoints, int self) {
        work = context(config).members(endpoints).self(self).conclude();
        XorSetMembership set = work.membership();
        return new L2Membership(work.scheme(), set.setId(), set.member(), set.size());
    }

    private L2Context work() {
        if (work == null) {
            throw new IllegalStateException("node daemon of job=" + config.job() + " has no node list: joinL2 first");
        }
        return work;
    }

    @Override
    public long submit(long version) throws IOException {
        L2Context context = work();
        Set<Long> older = new TreeSet<>();
        for (int rank : l1.ranksWithManifest(version)) {
            for (RankManifest link : ChainRestorer.chain(l1, version, rank, config.worldSize())) {
                if (link.version() != version && !Files.exists(ParityFiles.manifest(l1, link.version()))) {
                    older.add(link.version());
                }
            }
        }
        // The newest is always encoded afresh: a version number reused after a restart must not keep an old parity.
        L2Encoder encoder = new L2Encoder(context);
        long bytes = 0;
        for (long link : older) {
            bytes += encoded(encoder.encode(link));
        }
        return bytes + encoded(encoder.encode(version));
    }

    private static long encoded(EncodeResult result) {
        return result.protectedAtL2() ? result.parityBytes() : 0;
    }

    @Override
    public long drainToL3(long version, List<Integer> ranks, Path l3Root, boolean direct) throws IOException {
        for (int rank : ranks) {
            if (rank < 0 || rank >= config.worldSize()) {
                throw new IllegalArgumentException("rank=" + rank + " outside the job's 0.."
                        + (config.worldSize() - 1));
            }
        }
        return ChainComposer.composeRanks(l1, new CheckpointDirectory(l3Root, config.job()), version, ranks, direct);
    }

    @Override
    public RebuildOutcome rebuild(long version) {
        L2Rebuilder rebuilder = new L2Rebuilder(work());
        Deque<Long> todo = new ArrayDeque<>(List.of(version));
        Set<Long> rebuilt = new HashSet<>();
        while (!todo.isEmpty()) {
            long link = todo.removeFirst();
            if (!rebuilt.add(link) || rebuilt.size() > ChainRestorer.MAX_CHAIN) {
                continue;
            }
            try {
                rebuildOne(rebuilder, link);
                for (int rank : l1.ranksWithManifest(link)) {
                    RankManifest manifest = ManifestFiles.read(l1.manifestFile(link, rank));
                    if (!manifest.full()) {
                        todo.addLast(manifest.parentVersion());
                    }
                }
            } catch (IOException | RuntimeException e) {
                rebuilt.remove(link);
                return RebuildOutcome.failed(rebuilt, link, e.getMessage());
            }
        }
        return RebuildOutcome.done(rebuilt);
    }

    /** Moves what is left of the version aside, rebuilds it, then deletes the leftovers (or puts them back). */
    private void rebuildOne(L2Rebuilder rebuilder, long version) throws IOException {
        Path directory = l1.versionDirectory(version);
        Path aside = directory.resolveSibling(directory.getFileName() + ".before-rebuild");
        SecureFiles.deleteTree(aside);
        boolean moved = Files.isDirectory(directory);
        if (moved) {
            Files.move(directory, aside);
        }
        try {
            rebuilder.rebuildData(version);
        } catch (IOException | RuntimeException e) {
            if (moved) {
                SecureFiles.deleteTree(directory);
                Files.move(aside, directory);
            }
            throw e;
        }
        SecureFiles.deleteTree(aside);
    }

    @Override
    public List<VersionStatus> holdings() throws IOException {
        return new Catalog(l1, true).scan(false);
    }

    @Override
    public void pruneOlderThan(long newest) {
        removeParity(version -> version < newest && l1.ranksWithManifest(version).isEmpty(), "pruning");
    }

    @Override
    public void forgetNewerThan(long restored) {
        removeParity(version -> version > restored, "forgetting");
    }

    @Override
    public void release() {
        removeParity(version -> true, "releasing");
    }

    private interface VersionTest {
        boolean test(long version) throws IOException;
    }

    private void removeParity(VersionTest which, String what) {
        if (work == null) {
            return;
        }
        try {
            for (long version : l1.versions()) {
                if (which.test(version)) {
                    Files.deleteIfExists(ParityFiles.manifest(l1, version));
                    Files.deleteIfExists(ParityFiles.parity(l1, version));
                    if (l1.ranksWithManifest(version).isEmpty()) {
                        l1.deleteVersionIfEmpty(version);
                    }
                }
            }
        } catch (IOException e) {
            config.log().accept("node daemon of job " + config.job() + ": " + what + " L2 files failed: "
                    + e.getMessage());
        }
    }

    /**
     * Stops the service once no other node has used it for a moment: the other nodes may still be encoding the last
     * version from this node's files when this rank finishes. Bounded by the I/O timeout. A daemon that never joined
     * a set stops at once: no other node knows its address.
     */
    @Override
    public void close() {
        if (work == null) {
            server.close();
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(work.ioTimeoutMillis());
        long quietSince = System.nanoTime();
        while (System.nanoTime() - quietSince < QUIET_NANOS && System.nanoTime() < deadline) {
            if (server.connections() > 0) {
                quietSince = System.nanoTime();
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
        server.close();
    }
}
