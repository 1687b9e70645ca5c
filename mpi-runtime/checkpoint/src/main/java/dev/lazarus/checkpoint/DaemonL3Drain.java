package dev.lazarus.checkpoint;

import dev.lazarus.daemon.NodeDaemon;
import dev.lazarus.daemon.NodeDaemonConfig;
import dev.lazarus.daemon.NodeDaemonGoneException;
import dev.lazarus.daemon.NodeDaemons;
import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.ElementType;
import dev.lazarus.recovery.policy.Level;
import dev.lazarus.store.drain.ChainComposer;
import dev.lazarus.store.drain.DrainStage;
import dev.lazarus.store.drain.DrainTarget;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * L3 draining in the node daemon processes ({@code lazarus.ckpt.daemon=process}): each node's leader hands every
 * version due on L3 to its node's daemon, which composes the files of all the node's ranks onto L3 at background
 * priority and finishes a drain during which the ranks die. The node's other ranks drain nothing to L3 themselves. A
 * leader that cannot reach its daemon leaves its node's ranks to drain from their own drain threads, as in embedded
 * mode, and says why; a daemon that dies mid-run leaves the leader draining the node's ranks itself until the next
 * launch.
 */
final class DaemonL3Drain implements AutoCloseable {
    /** The node's daemon, on a leader that reached it; else null. */
    private final NodeDaemon daemon;
    private final List<Integer> nodeRanks;
    private final boolean byNodeDaemon;
    private final CheckpointDirectory l1;
    private final Consumer<String> log;
    /** Whether the daemon stopped answering: the leader drains its node itself from then on. Drain thread only. */
    private boolean daemonGone;

    private DaemonL3Drain(NodeDaemon daemon, List<Integer> nodeRanks, boolean byNodeDaemon, CheckpointDirectory l1,
                          Consumer<String> log) {
        this.daemon = daemon;
        this.nodeRanks = nodeRanks;
        this.byNodeDaemon = byNodeDaemon;
        this.l1 = l1;
        this.log = log;
    }

    /**
     * Opens the node's daemon on every node's leader, when L3 is on and the daemons are processes; collective (one
     * all-gather, so every rank knows whether its leader drains for it).
     *
     * @param l1   the node's L1 directory of the job, which the leader drains from if its daemon dies mid-run
     * @param l3On whether the job has L3
     */
    static DaemonL3Drain open(Comm comm, CheckpointSettings settings, NodeMap nodes, CheckpointDirectory l1,
                              boolean l3On, Consumer<String> log) {
        boolean wanted = l3On && settings.daemonMode().equals(NodeDaemonConfig.PROCESS);
        if (!wanted) {
            return new DaemonL3Drain(null, List.of(), false, null, log);
        }
        NodeDaemon daemon = null;
        if (nodes.isLeader(comm.rank())) {
            try {
                daemon = NodeDaemons.open(L2Node.daemonConfig(comm, settings, log));
            } catch (IOException | RuntimeException e) {
                log.accept("rank " + comm.rank() + ": node " + settings.node() + " cannot reach its node daemon to"
                        + " drain L3: " + e.getMessage() + "; its ranks drain L3 themselves");
            }
        }
        int[] reached = new int[comm.size()];
        comm.allgather(new int[] {daemon != null ? 1 : 0}, 0, 1, reached, 0, ElementType.INT);
        int node = nodes.node(comm.rank());
        return new DaemonL3Drain(daemon, nodes.ranksOn(node), reached[nodes.leader(node)] == 1, l1, log);
    }

    /** @return whether this rank's files reach L3 through its node's daemon (its leader hands them over) */
    boolean byNodeDaemon() {
        return byNodeDaemon;
    }

    /**
     * @param every  every how many L1 versions one goes to L3
     * @param l3Root the L3 root
     * @param direct write with O_DIRECT where the file system takes it
     * @return the leader's L3 drain target, whose one stage has the daemon drain the node's ranks; empty elsewhere
     */
    Optional<DrainTarget> target(int every, Path l3Root, boolean direct) {
        if (daemon == null) {
            return Optional.empty();
        }
        if (every < 1) {
            throw new IllegalArgumentException("L3 interval every=" + every + " must be at least 1");
        }
        return Optional.of(new DrainTarget() {
            @Override
            public String level() {
                return Level.L3.name();
            }

            @Override
            public int every() {
                return every;
            }

            @Override
            public List<DrainStage> stages() {
                return List.of(DrainStage.of("copy", version -> drain(version, l3Root, direct)));
            }
        });
    }

    /**
     * Has the daemon drain the node's ranks' files of {@code version}, or, once the daemon is gone (it died
     * mid-run; the next launch starts it again), composes them here, on the leader's drain thread.
     */
    private long drain(long version, Path l3Root, boolean direct) throws IOException {
        if (!daemonGone) {
            try {
                return daemon.drainToL3(version, nodeRanks, l3Root, direct);
            } catch (NodeDaemonGoneException e) {
                daemonGone = true;
                log.accept("rank " + nodeRanks.getFirst() + ": " + e.getMessage() + "; this node's L3 drains run in"
                        + " rank " + nodeRanks.getFirst() + " until the next launch");
            }
        }
        return ChainComposer.composeRanks(l1, new CheckpointDirectory(l3Root, l1.job()), version, nodeRanks, direct);
    }

    /** Closes the leader's connection; the daemon finishes what it was handed. */
    @Override
    public void close() {
        if (daemon != null) {
            daemon.close();
        }
    }
}
