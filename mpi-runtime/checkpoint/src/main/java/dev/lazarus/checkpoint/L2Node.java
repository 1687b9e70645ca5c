package dev.lazarus.checkpoint;

import dev.lazarus.daemon.l2.EncodeResult;
import dev.lazarus.daemon.l2.Endpoints;
import dev.lazarus.daemon.l2.L2Context;
import dev.lazarus.daemon.l2.L2Encoder;
import dev.lazarus.daemon.l2.L2Rebuilder;
import dev.lazarus.daemon.l2.L2Server;
import dev.lazarus.daemon.l2.XorSetMembership;
import dev.lazarus.daemon.l2.files.L2Scheme;
import dev.lazarus.daemon.l2.files.ParityFiles;
import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.ElementType;
import dev.lazarus.store.format.ManifestFiles;
import dev.lazarus.store.format.RankManifest;
import dev.lazarus.store.incremental.ChainRestorer;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * This node's part in L2, the RAID-5 level across nodes. The node's leader rank (its lowest) runs the node's L2
 * service on a thread of its own: it serves the node's L1 files to the other members of its XOR set, encodes the
 * node's parity of each drained version in the drain thread, and at restart rebuilds the node's files of a version
 * from the set when they are gone. A restart waits for the rank files only; the node's parity of the rebuilt versions
 * is encoded again afterwards, in the drain thread ({@link #owesParity}). The other ranks of the node only take part
 * in the collective steps.
 *
 * <p>L2 is on when the job spans two or more nodes, {@code lazarus.ckpt.l2.every} is positive and the launcher gave a
 * per-job secret; every rank comes to the same decision.
 */
final class L2Node implements AutoCloseable {
    /** How long the service must go unused before it stops. */
    private static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(300);
    private final Comm comm;
    private final NodeMap nodes;
    private final CheckpointDirectory l1;
    private final Consumer<String> log;
    private final L2Server server;
    private final L2Context work;
    private final boolean enabled;
    private final String state;
    /** Versions whose rank files this node rebuilt without its parity of them. */
    private final Set<Long> parityOwed = new HashSet<>();

    private L2Node(Comm comm, NodeMap nodes, CheckpointDirectory l1, Consumer<String> log,
                   L2Server server, L2Context work, boolean enabled, String state) {
        this.comm = comm;
        this.nodes = nodes;
        this.l1 = l1;
        this.log = log;
        this.server = server;
        this.work = work;
        this.enabled = enabled;
        this.state = state;
    }

    /**
     * Starts the node's L2 service on the leader and agrees on the node list; collective.
     *
     * @param log where one-line reports go
     */
    static L2Node open(Comm comm, CheckpointSettings settings, NodeMap nodes, Consumer<String> log) {
        CheckpointDirectory l1 = new CheckpointDirectory(settings.l1Directory(), settings.jobId());
        String off = settings.l2Every() == 0 ? "L2 off: lazarus.ckpt.l2.every=0"
                : nodes.nodes() < 2 ? "L2 off: the job runs on one node, so no other node can hold its parity"
                : settings.l2Secret().isEmpty() ? "L2 off: no per-job secret (lazarus.ckpt.l2.secret)" : null;
        if (off != null) {
            return new L2Node(comm, nodes, l1, log, null, null, false, off);
        }
        boolean leader = nodes.isLeader(comm.rank());
        L2Server server = null;
        String endpoint = "";
        if (leader) {
            try {
                String host = settings.l2Bind().orElseGet(() -> addressOf(settings.node()));
                L2Context serving = context(settings, log).bind(Endpoints.format(
                        new InetSocketAddress(InetAddress.getByName(host), 0))).conclude();
                server = L2Server.start(serving);
                endpoint = Endpoints.format(server.address());
            } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
                log.accept("rank " + comm.rank() + ": node " + settings.node() + " cannot start its L2 service: "
                        + e.getMessage());
            }
        }
        List<String> endpoints = StringGather.allgather(comm, endpoint);
        List<String> members = new ArrayList<>();
        for (int node = 0; node < nodes.nodes(); node++) {
            members.add(endpoints.get(nodes.leader(node)));
        }
        if (members.contains("")) {
            if (server != null) {
                server.close();
            }
            return new L2Node(comm, nodes, l1, log, null, null, false,
                    "L2 off: node " + nodes.names().get(members.indexOf("")) + " could not start its L2 service");
        }
        String name = nodes.names().get(nodes.node(comm.rank()));
        if (!leader) {
            return new L2Node(comm, nodes, l1, log, null, null, true, "L2 on: node " + name
                    + "'s service runs in rank " + nodes.leader(nodes.node(comm.rank())));
        }
        L2Context work = context(settings, log).members(members).self(nodes.node(comm.rank())).conclude();
        XorSetMembership set = work.membership();
        String kind = settings.l2Scheme().setName();
        String state = !set.redundant() ? "L2 off for node " + name + ": its " + kind + " " + set.setId()
                + " has one node" : "L2 on: node " + name + " is member " + set.member() + " of " + kind + " "
                + set.setId() + " (" + set.size() + " nodes), every " + settings.l2Every() + " version(s)";
        return new L2Node(comm, nodes, l1, log, server, work, true, state);
    }

    private static L2Context context(CheckpointSettings settings, Consumer<String> log) {
        return new L2Context().job(settings.jobId()).l1Root(settings.l1Directory())
                .secretFile(settings.l2Secret().orElseThrow()).setSize(settings.l2SetSize())
                .scheme(settings.l2Scheme()).log(log);
    }

    private static String addressOf(String node) {
        try {
            return InetAddress.getByName(node).getHostAddress();
        } catch (IOException e) {
            throw new IllegalArgumentException("node name " + node + " does not resolve; set lazarus.ckpt.l2.bind");
        }
    }

    /** @return whether the job has L2 (every rank gives the same answer) */
    boolean enabled() {
        return enabled;
    }

    /** @return one line: whether L2 is on, and this node's XOR set */
    String describe() {
        return state;
    }

    /** @return whether this rank encodes its node's parity (the node's leader, when L2 is on) */
    boolean encodes() {
        return work != null;
    }

    /**
     * Writes this node's parity of {@code version}, and of any older version of its chain that has none yet. The
     * newest is always encoded afresh: a version number reused after a restart must not keep an old parity.
     *
     * @return parity bytes written
     */
    long encodeWithChain(long version) throws IOException {
        Set<Long> older = new TreeSet<>();
        for (int rank : nodes.ranksOn(nodes.node(comm.rank()))) {
            for (RankManifest link : ChainRestorer.chain(l1, version, rank, comm.size())) {
                if (link.version() != version && !Files.exists(ParityFiles.manifest(l1, link.version()))) {
                    older.add(link.version());
                }
            }
        }
        L2Encoder encoder = new L2Encoder(work);
        long bytes = 0;
        for (long link : older) {
            bytes += encoded(encoder.encode(link));
        }
        return bytes + encoded(encoder.encode(version));
    }

    private static long encoded(EncodeResult result) {
        return result.protectedAtL2() ? result.parityBytes() : 0;
    }

    /**
     * Tells every rank which nodes need their files of a version rebuilt; collective.
     *
     * @param failed whether this rank could not restore the version from L1
     * @return per node, whether one of its ranks failed
     */
    boolean[] nodesThatFailed(boolean failed) {
        int[] flags = new int[comm.size()];
        comm.allgather(new int[] {failed ? 1 : 0}, 0, 1, flags, 0, ElementType.INT);
        boolean[] nodeFailed = new boolean[nodes.nodes()];
        for (int rank = 0; rank < flags.length; rank++) {
            nodeFailed[nodes.node(rank)] |= flags[rank] != 0;
        }
        return nodeFailed;
    }

    /**
     * Rebuilds this node's files of {@code version} and of its whole chain from its set, when this rank is the
     * leader of a node that failed and the set can rebuild it (under XOR, the only one of its set that failed; under
     * PARTNER, one whose right neighbour survived); everyone else returns at once.
     * Whatever the node still held of a rebuilt version is deleted only once its replacement is in place. Only the
     * rank files are rebuilt, which is what the ranks wait for (n-1 times their size crosses the network, against n
     * times with the parity): the node's parity of the chain is owed until {@link #owesParity} hands it to the drain.
     *
     * @param nodeFailed from {@link #nodesThatFailed}
     * @return null if nothing was to be done here or the rebuild succeeded, else why it failed
     */
    String rebuildIfLost(long version, boolean[] nodeFailed) {
        int node = nodes.node(comm.rank());
        if (work == null || !nodeFailed[node]) {
            return null;
        }
        String unrecoverable = unrecoverable(version, nodeFailed);
        if (unrecoverable != null) {
            return unrecoverable;
        }
        Deque<Long> todo = new ArrayDeque<>(List.of(version));
        Set<Long> rebuilt = new HashSet<>();
        L2Rebuilder rebuilder = new L2Rebuilder(work);
        while (!todo.isEmpty()) {
            long link = todo.removeFirst();
            if (!rebuilt.add(link) || rebuilt.size() > ChainRestorer.MAX_CHAIN) {
                continue;
            }
            try {
                rebuildOne(rebuilder, link);
                for (int rank : nodes.ranksOn(node)) {
                    RankManifest manifest = ManifestFiles.read(l1.manifestFile(link, rank));
                    if (!manifest.full()) {
                        todo.addLast(manifest.parentVersion());
                    }
                }
            } catch (IOException | RuntimeException e) {
                return "L2 cannot rebuild version " + link + " of node " + nodes.names().get(node) + ": "
                        + e.getMessage();
            }
        }
        parityOwed.addAll(rebuilt);
        log.accept("rank " + comm.rank() + ": node " + nodes.names().get(node) + " rebuilt versions "
                + new TreeSet<>(rebuilt) + " from its " + work.scheme().setName()
                + "; its parity of them follows in the background");
        return null;
    }

    /**
     * Whether this node rebuilt the rank files of {@code restored}, the version a restart settled on, without its
     * parity of it. Until that parity is encoded again ({@link #encodeWithChain}, which takes the chain's other
     * rebuilt versions with it), a second node lost in the set could not be rebuilt from L2 at that version. Forgets
     * what it owed for every other version: nothing will restore those.
     */
    boolean owesParity(long restored) {
        boolean owed = parityOwed.contains(restored);
        parityOwed.clear();
        return owed;
    }

    /**
     * Encodes the parity {@link #owesParity} said was owed, in the drain thread, and says so.
     *
     * @return parity bytes written
     */
    long encodeOwedParity(long version) throws IOException {
        long started = System.nanoTime();
        long bytes = encodeWithChain(version);
        log.accept(String.format("rank %d: node %s encoded its L2 parity of version %d and its chain again after the"
                + " rebuild: %d bytes in %.3f s", comm.rank(), nodes.names().get(nodes.node(comm.rank())), version,
                bytes, (System.nanoTime() - started) / 1e9));
        return bytes;
    }

    /**
     * @return why this node's set cannot rebuild it, or null if it can: under XOR another member failed too, under
     *         PARTNER the right neighbour that holds this node's copy failed too
     */
    private String unrecoverable(long version, boolean[] nodeFailed) {
        XorSetMembership set = work.membership();
        int first = nodes.node(comm.rank()) - set.member();
        if (work.scheme() == L2Scheme.PARTNER) {
            int partner = first + L2Scheme.partnerOf(set.member(), set.size());
            return !nodeFailed[partner] ? null : "L2 cannot rebuild version " + version + " of node "
                    + nodes.names().get(first + set.member()) + ": its partner " + nodes.names().get(partner)
                    + ", which holds its copy, is lost too";
        }
        List<String> lostInSet = new ArrayList<>();
        for (int other = first; other < first + set.size(); other++) {
            if (nodeFailed[other]) {
                lostInSet.add(nodes.names().get(other));
            }
        }
        return lostInSet.size() < 2 ? null : "L2 cannot rebuild version " + version + ": XOR set " + set.setId()
                + " lost " + lostInSet.size() + " nodes " + lostInSet;
    }

    /** Moves what is left of the version aside, rebuilds it, then deletes the leftovers (or puts them back). */
    private void rebuildOne(L2Rebuilder rebuilder, long version) throws IOException {
        Path directory = l1.versionDirectory(version);
        Path aside = directory.resolveSibling(directory.getFileName() + ".before-rebuild");
        deleteTree(aside);
        boolean moved = Files.isDirectory(directory);
        if (moved) {
            Files.move(directory, aside);
        }
        try {
            rebuilder.rebuildData(version);
        } catch (IOException | RuntimeException e) {
            if (moved) {
                deleteTree(directory);
                Files.move(aside, directory);
            }
            throw e;
        }
        deleteTree(aside);
    }

    /**
     * Removes this node's L2 files of versions older than {@code newest} that have no rank files left. Newer versions
     * are left alone: another rank of the node may be writing one.
     */
    void pruneOlderThan(long newest) {
        removeParity(version -> version < newest && l1.ranksWithManifest(version).isEmpty(), "pruning");
    }

    /**
     * At restart, removes this node's parity of versions newer than the one restored: an earlier run of the job wrote
     * it, and the version number will be reused for other data.
     */
    void forgetNewerThan(long restored) {
        removeParity(version -> version > restored, "forgetting");
    }

    /** Removes every L2 file of this node, after a finished run. */
    void release() {
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
            log.accept("rank " + comm.rank() + ": " + what + " L2 files failed: " + e.getMessage());
        }
    }

    /**
     * Stops the node's service once no other node has used it for a moment: the other leaders may still be encoding
     * the last version from this node's files when this rank finishes. Bounded by the I/O timeout.
     */
    @Override
    public void close() {
        if (server == null) {
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

    private static void deleteTree(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            return;
        }
        try (var entries = Files.list(directory)) {
            for (Path entry : entries.toList()) {
                Files.delete(entry);
            }
        }
        Files.delete(directory);
    }
}
