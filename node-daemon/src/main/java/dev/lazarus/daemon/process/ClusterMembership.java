package dev.lazarus.daemon.process;

import dev.lazarus.coordinator.state.JobCluster;
import dev.lazarus.coordinator.state.JobState;
import dev.lazarus.coordinator.state.StateFiles;
import dev.lazarus.coordinator.state.StateRecords;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * How a node daemon joins its job's Hazelcast cluster: {@code --cluster-token T --cluster-join HOST:PORT
 * --cluster-port P --state-dir DIR [--net CIDR]}. The daemon is then a full member: it holds partitions of the job's
 * recovery state and backups of the others', and writes them through to the state directory as the coordinator's
 * member does, so that losing any one member, the coordinator's host's daemon included, loses nothing.
 *
 * @param token    the cluster's per-run token
 * @param join     the coordinator's member, {@code host:port}
 * @param port     the first port to bind
 * @param network  {@code --net}, or null for the loopback
 * @param stateDir the state directory's root
 */
record ClusterMembership(String token, String join, int port, String network, Path stateDir) {
    private static final Pattern TOKEN = Pattern.compile("[0-9a-f]{16}");
    private static final Pattern HOST_PORT = Pattern.compile("[A-Za-z0-9.-]{1,253}:[0-9]{1,5}");

    /** @throws IllegalArgumentException one line for a value the coordinator would never give */
    ClusterMembership {
        if (!TOKEN.matcher(token).matches()) {
            throw new IllegalArgumentException("--cluster-token must be 16 hex digits");
        }
        if (!HOST_PORT.matcher(join).matches()) {
            throw new IllegalArgumentException("--cluster-join=" + join + " must be HOST:PORT");
        }
        if (port < 1 || port > 65535 - JobCluster.PORTS) {
            throw new IllegalArgumentException("--cluster-port=" + port + " must be 1 to " + (65535 - JobCluster.PORTS));
        }
    }

    /**
     * Starts this node's member and checks it joined the coordinator's cluster (a member alone would be a cluster of
     * its own, holding nothing of the job's state).
     *
     * @param node the node's name, the writer of its events
     * @throws IllegalStateException one line when it is alone
     */
    JobState start(String job, String node, PrintStream err) {
        JobCluster cluster = JobCluster.onThisHost(job, token, network, port, List.of(join));
        JobState state = cluster.start(new StateFiles(stateDir, job), "daemon-" + node, err);
        if (state.members() < 2) {
            state.close();
            throw new IllegalStateException("could not join the job's cluster at " + join);
        }
        state.addEvent(new StateRecords.Event(System.currentTimeMillis(), 0, "node", "the node daemon on " + node
                + " joined the job's cluster at " + state.address() + " (" + state.members() + " members)"));
        return state;
    }
}
