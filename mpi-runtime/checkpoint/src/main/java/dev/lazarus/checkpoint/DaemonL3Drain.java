package dev.lazarus.checkpoint;

import dev.lazarus.daemon.NodeDaemon;
import dev.lazarus.daemon.NodeDaemonConfig;
import dev.lazarus.daemon.NodeDaemons;
import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.ElementType;
import dev.lazarus.recovery.policy.Level;
import dev.lazarus.store.drain.DrainStage;
import dev.lazarus.store.drain.DrainTarget;

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
 * mode, and says why.
 */
final class DaemonL3Drain implements AutoCloseable {
    /** The node's daemon, on a leader that reached it; else null. */
    private final NodeDaemon daemon;
    private final List<Integer> nodeRanks;
    private final boolean byNodeDaemon;

    private DaemonL3Drain(NodeDaemon daemon, List<Integer> nodeRanks, boolean byNodeDaemon) {
        this.daemon = daemon;
        this.nodeRanks = nodeRanks;
        this.byNodeDaemon = byNodeDaemon;
    }

    /**
     * Opens the node's daemon on every node's leader, when L3 is on and the daemons are processes; collective (one
     * all-gather, so every rank knows whether its leader drains for it).
     *
     * @param l3On whether the job has L3
     */
    static DaemonL3Drain open(Comm comm, CheckpointSettings settings, NodeMap nodes, boolean l3On,
                              Consumer<String> log) {
        boolean wanted = l3On && settings.daemonMode().equals(NodeDaemonConfig.PROCESS);
        if (!wanted) {
            return new DaemonL3Drain(null, List.of(), false);
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
        return new DaemonL3Drain(daemon, nodes.ranksOn(node), reached[nodes.leader(node)] == 1);
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
                return List.of(DrainStage.of("copy", version -> daemon.drainToL3(version, nodeRanks, l3Root,
                        direct)));
            }
        });
    }

    /** Closes the leader's connection; the daemon finishes what it was handed. */
    @Override
    public void close() {
        if (daemon != null) {
            daemon.close();
        }
    }
}
