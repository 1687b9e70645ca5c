package dev.lazarus.checkpoint;

import dev.lazarus.daemon.L2Membership;
import dev.lazarus.daemon.NodeDaemon;
import dev.lazarus.daemon.NodeDaemonConfig;
import dev.lazarus.daemon.NodeDaemons;
import dev.lazarus.daemon.RebuildOutcome;
import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.ElementType;
import dev.lazarus.recovery.policy.L2Loss;
import dev.lazarus.recovery.policy.RecoveryPolicy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;

/**
 * This node's part in L2, the RAID-5 level across nodes, as the ranks see it: the collective steps (agreeing on the
 * node list, telling every rank which nodes failed), with the work handed to the node's {@link NodeDaemon} and the
 * question whether a lost node's set can rebuild it to the {@link RecoveryPolicy}. The node's leader rank (its lowest) opens the daemon: it serves the node's
 * L1 files to the other members of its set, encodes the node's parity of each drained version (called from the drain
 * thread), and at restart rebuilds the node's files of a version from the set when they are gone. A restart waits for
 * the rank files only; the node's parity of the rebuilt versions is encoded again afterwards, in the drain thread
 * ({@link #owesParity}). The other ranks of the node only take part in the collective steps.
 *
 * <p>L2 is on when the job spans two or more nodes, {@code lazarus.ckpt.l2.every} is positive and the launcher gave a
 * per-job secret; every rank comes to the same decision.
 */
final class L2Node implements AutoCloseable {
    private final Comm comm;
    private final NodeMap nodes;
    private final Consumer<String> log;
    /** The node's daemon, on the leader of a node when L2 is on; else null. */
    private final NodeDaemon daemon;
    /** The leader's place in its set, when it has a daemon. */
    private final L2Membership set;
    private final boolean enabled;
    private final String state;
    /** Versions whose rank files this node rebuilt without its parity of them. */
    private final Set<Long> parityOwed = new HashSet<>();
    /** The rebuild started before the ranks' set-up ({@link #startRebuild}), until a restore takes its outcome. */
    private EarlyRebuild early;

    private L2Node(Comm comm, NodeMap nodes, Consumer<String> log, NodeDaemon daemon, L2Membership set,
                   boolean enabled, String state) {
        this.comm = comm;
        this.nodes = nodes;
        this.log = log;
        this.daemon = daemon;
        this.set = set;
        this.enabled = enabled;
        this.state = state;
    }

    /**
     * Starts the node's L2 service on the leader and agrees on the node list; collective.
     *
     * @param log where one-line reports go
     */
    static L2Node open(Comm comm, CheckpointSettings settings, NodeMap nodes, Consumer<String> log) {
        String off = settings.l2Every() == 0 ? "L2 off: lazarus.ckpt.l2.every=0"
                : nodes.nodes() < 2 ? "L2 off: the job runs on one node, so no other node can hold its parity"
                : settings.l2Secret().isEmpty() ? "L2 off: no per-job secret (lazarus.ckpt.l2.secret)" : null;
        if (off != null) {
            return new L2Node(comm, nodes, log, null, null, false, off);
        }
        boolean leader = nodes.isLeader(comm.rank());
        NodeDaemon daemon = null;
        if (leader) {
            try {
                daemon = NodeDaemons.open(daemonConfig(comm, settings, log));
            } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
                log.accept("rank " + comm.rank() + ": node " + settings.node() + " cannot start its L2 service: "
                        + e.getMessage());
            }
        }
        List<String> endpoints = StringGather.allgather(comm, daemon == null ? "" : daemon.l2Endpoint());
        List<String> members = new ArrayList<>();
        for (int node = 0; node < nodes.nodes(); node++) {
            members.add(endpoints.get(nodes.leader(node)));
        }
        if (members.contains("")) {
            if (daemon != null) {
                daemon.close();
            }
            return new L2Node(comm, nodes, log, null, null, false,
                    "L2 off: node " + nodes.names().get(members.indexOf("")) + " could not start its L2 service");
        }
        String name = nodes.names().get(nodes.node(comm.rank()));
        boolean inDaemon = settings.daemonMode().equals(NodeDaemonConfig.PROCESS);
        if (!leader) {
            return new L2Node(comm, nodes, log, null, null, true, "L2 on: node " + name + "'s service runs in "
                    + (inDaemon ? "its node daemon, reached through rank " : "rank ")
                    + nodes.leader(nodes.node(comm.rank())));
        }
        L2Membership set = daemon.joinL2(members, nodes.node(comm.rank()));
        String kind = settings.l2Scheme().setName();
        String state = !set.redundant() ? "L2 off for node " + name + ": its " + kind + " " + set.setId()
                + " has one node" : "L2 on: node " + name + " is member " + set.member() + " of " + kind + " "
                + set.setId() + " (" + set.size() + " nodes), every " + settings.l2Every() + " version(s)"
                + (inDaemon ? ", in its node daemon" : "");
        return new L2Node(comm, nodes, log, daemon, set, true, state);
    }

    /**
     * @return how this node's leader opens its daemon: the same for L2 and for L3 draining, so that a daemon process
     *         serves both with one service
     * @throws java.util.NoSuchElementException if the settings have no job secret
     */
    static NodeDaemonConfig daemonConfig(Comm comm, CheckpointSettings settings, Consumer<String> log) {
        return new NodeDaemonConfig(settings.daemonMode(), settings.jobId(), settings.daemonSocket(), comm.size(),
                settings.l1Directory(), settings.l2Secret().orElseThrow(), settings.l2SetSize(), settings.l2Scheme(),
                settings.l2Bind().orElseGet(() -> addressOf(settings.node())), log);
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
        return daemon != null;
    }

    /**
     * Writes this node's parity of {@code version}, and of any older version of its chain that has none yet. The
     * newest is always encoded afresh: a version number reused after a restart must not keep an old parity.
     *
     * @return parity bytes written
     */
    long encodeWithChain(long version) throws IOException {
        awaitEarlyRebuild();
        return daemon.submit(version);
    }

    /**
     * Tells every rank which nodes need their files of a version rebuilt; collective.
     *
     * @param failed whether this rank could not restore the version from L1
     * @return per node, whether one of its ranks failed
     */
    List<Boolean> nodesThatFailed(boolean failed) {
        int[] flags = new int[comm.size()];
        comm.allgather(new int[] {failed ? 1 : 0}, 0, 1, flags, 0, ElementType.INT);
        List<Boolean> nodeFailed = new ArrayList<>(Collections.nCopies(nodes.nodes(), false));
        for (int rank = 0; rank < flags.length; rank++) {
            if (flags[rank] != 0) {
                nodeFailed.set(nodes.node(rank), true);
            }
        }
        return nodeFailed;
    }

    /**
     * Rebuilds this node's files of {@code version} and of its whole chain from its set, when this rank is the
     * leader of a node that failed and the policy says the set can rebuild it
     * ({@link RecoveryPolicy#whyNotRebuildable}); everyone else returns at once.
     * Whatever the node still held of a rebuilt version is deleted only once its replacement is in place. Only the
     * rank files are rebuilt, which is what the ranks wait for (n-1 times their size crosses the network, against n
     * times with the parity): the node's parity of the chain is owed until {@link #owesParity} hands it to the drain.
     *
     * @param nodeFailed from {@link #nodesThatFailed}
     * @param policy     which lost nodes their set can rebuild
     * @return null if nothing was to be done here or the rebuild succeeded, else why it failed
     */
    String rebuildIfLost(long version, List<Boolean> nodeFailed, RecoveryPolicy policy) {
        int node = nodes.node(comm.rank());
        if (daemon == null || !nodeFailed.get(node)) {
            return null;
        }
        String unrecoverable = policy.whyNotRebuildable(new L2Loss(version, node, nodes.names(), nodeFailed,
                set.scheme(), set.setId(), set.member(), set.size()));
        if (unrecoverable != null) {
            return unrecoverable;
        }
        long started = System.nanoTime();
        EarlyRebuild early = awaitEarlyRebuild();
        RebuildOutcome outcome;
        double seconds;
        String when = "";
        if (early != null && early.version() == version) {
            EarlyRebuild.Finished finished = early.await();
            outcome = finished.outcome();
            seconds = finished.seconds();
            when = String.format(Locale.ROOT, ", started with the launch's set-up (the restore waited %.3f s for it)",
                    (System.nanoTime() - started) * 1e-9);
        } else {
            outcome = daemon.rebuild(version);
            seconds = (System.nanoTime() - started) * 1e-9;
        }
        if (!outcome.succeeded()) {
            return "L2 cannot rebuild version " + outcome.failedVersion() + " of node " + nodes.names().get(node)
                    + ": " + outcome.failure();
        }
        parityOwed.addAll(outcome.rebuilt());
        log.accept("rank " + comm.rank() + ": node " + nodes.names().get(node) + " rebuilt versions "
                + outcome.rebuilt() + " from its " + set.scheme().setName() + String.format(Locale.ROOT, " in %.3f s",
                seconds) + when + "; its parity of them follows in the background");
        return null;
    }

    /**
     * Starts rebuilding this node's files of {@code version} on a thread of its own, on the leader of a node whose
     * L1 lacks them, for the restore the launch will make ({@link #rebuildIfLost} takes the outcome). Call once the
     * node's ranks have looked at their L1 files: the rebuild writes them.
     */
    synchronized void startRebuild(long version) {
        if (daemon != null && set.redundant() && early == null) {
            early = EarlyRebuild.start(daemon, version);
        }
    }

    /**
     * Waits for the rebuild {@link #startRebuild} began, if one is under way: the daemon takes one call at a time,
     * and the drain thread may call it too.
     *
     * @return that rebuild, ended, or null if none was under way
     */
    private synchronized EarlyRebuild awaitEarlyRebuild() {
        EarlyRebuild done = early;
        if (done != null) {
            done.await();
            early = null;
        }
        return done;
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
     * Removes this node's L2 files of versions older than {@code newest} that have no rank files left. Newer versions
     * are left alone: another rank of the node may be writing one.
     */
    void pruneOlderThan(long newest) {
        if (daemon != null) {
            awaitEarlyRebuild();
            daemon.pruneOlderThan(newest);
        }
    }

    /**
     * At restart, removes this node's parity of versions newer than the one restored: an earlier run of the job wrote
     * it, and the version number will be reused for other data.
     */
    void forgetNewerThan(long restored) {
        if (daemon != null) {
            awaitEarlyRebuild();
            daemon.forgetNewerThan(restored);
        }
    }

    /** Removes every L2 file of this node, after a finished run. */
    void release() {
        if (daemon != null) {
            awaitEarlyRebuild();
            daemon.release();
        }
    }

    /** Stops the node's daemon, on the leader (see {@link NodeDaemon#close()}). */
    @Override
    public void close() {
        if (daemon != null) {
            awaitEarlyRebuild();
            daemon.close();
        }
    }
}
