package dev.lazarus.coordinator.state;

import java.io.PrintStream;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MapStoreConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;

/**
 * The Hazelcast configuration of one job's cluster (open source, 5.x):
 * <ul>
 *   <li>TCP-IP join with the job's explicit member list only: multicast and auto-detection off, so no member of
 *       another job or of anything else on the network is found or joined;</li>
 *   <li>members bound to one address ({@code --net}'s address of this host, else the loopback), never the
 *       wildcard;</li>
 *   <li>a cluster name carrying the job id and a random token made per launch of {@code ./lazarus run}: the open-source
 *       edition has no member authentication or TLS, so the name keeps jobs apart and the job's private network keeps
 *       others out;</li>
 *   <li>every state map with one synchronous backup and a write-through {@link JsonFileMapStore} on the state
 *       directory, loaded eagerly;</li>
 *   <li>no phone-home, no shutdown hook (the coordinator leaves when the job ends), no logging of Hazelcast's own
 *       (its warnings would interleave with the job's output).</li>
 * </ul>
 *
 * @param job     the job id
 * @param token   the per-launch random part of the cluster name
 * @param address the address every member binds to and is reached at
 * @param port    the first port to try (then up to {@link #PORTS} more)
 * @param members the members' {@code host:port} (this member's included)
 */
public record JobCluster(String job, String token, String address, int port, List<String> members) {
    /** Ports tried after the first when one is taken. */
    public static final int PORTS = 100;
    /** Synchronous backups of every state map: one, so that any one member can be lost. */
    public static final int BACKUPS = 1;
    /** Partitions of the state (Hazelcast's default, 271, is for far larger data; a prime spreads the keys). */
    public static final int PARTITIONS = 31;

    public JobCluster {
        members = List.copyOf(members);
        if (port < 1 || port > 65535 - PORTS) {
            throw new IllegalArgumentException("coordinator port " + port + " must be 1 to " + (65535 - PORTS));
        }
    }

    /** How long a member may be silent before the others count it lost (Hazelcast's default is 60 s). */
    public static final int MAX_SILENT_SECONDS = 10;

    /**
     * A member of the job's cluster on this host: bound to this host's address in {@code network} (else the loopback),
     * joining the members given.
     *
     * @param network {@code --net}'s CIDR, or null for the loopback
     * @throws IllegalArgumentException one line when the network is not a CIDR or this host has no address in it
     */
    public static JobCluster onThisHost(String job, String token, String network, int port, List<String> members) {
        String address = network == null ? "127.0.0.1" : Ipv4Cidr.localAddress(network);
        return new JobCluster(job, token, address, port, members);
    }

    /** A new random token (8 bytes, hex). */
    public static String newToken() {
        byte[] bytes = new byte[8];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** @return the cluster's name: {@code lazarus-<job>-<token>} */
    public String clusterName() {
        return "lazarus-" + job + "-" + token;
    }

    /**
     * @param files where the maps are stored through, or null to keep the state in memory only
     * @param err   where a state file that cannot be loaded is reported
     */
    public Config config(StateFiles files, PrintStream err) {
        Config config = new Config();
        config.setClusterName(clusterName());
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        config.setProperty("hazelcast.logging.type", "none");
        config.setProperty("hazelcast.socket.bind.any", "false");
        // A member of a one-member cluster need not wait to see whether others answer before it serves.
        config.setProperty("hazelcast.wait.seconds.before.join", "0");
        // A killed node daemon's member is noticed within seconds, not Hazelcast's minute: until it is, operations on
        // the partitions it owned wait.
        config.setProperty("hazelcast.max.no.heartbeat.seconds", Integer.toString(MAX_SILENT_SECONDS));
        config.setProperty("hazelcast.heartbeat.interval.seconds", "1");
        // The members share the nodes' cores with the ranks, and the state is a few hundred small records: a small
        // partition table (fewer migrations and backup syncs as daemons join), one thread per stage rather than one
        // per core, and no metrics collection every few seconds.
        config.setProperty("hazelcast.partition.count", Integer.toString(PARTITIONS));
        config.setProperty("hazelcast.operation.thread.count", "1");
        config.setProperty("hazelcast.operation.generic.thread.count", "1");
        config.setProperty("hazelcast.io.thread.count", "1");
        config.setProperty("hazelcast.event.thread.count", "1");
        config.getMetricsConfig().setEnabled(false);
        NetworkConfig network = config.getNetworkConfig();
        network.setPort(port).setPortAutoIncrement(true).setPortCount(PORTS);
        network.getInterfaces().setEnabled(true).addInterface(address);
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true).setMembers(members);
        for (String map : StateMaps.ALL) {
            MapConfig mapConfig = new MapConfig(map).setBackupCount(BACKUPS).setAsyncBackupCount(0);
            if (files != null) {
                mapConfig.setMapStoreConfig(new MapStoreConfig().setEnabled(true).setWriteDelaySeconds(0)
                        .setInitialLoadMode(MapStoreConfig.InitialLoadMode.EAGER)
                        .setImplementation(new JsonFileMapStore(files, map, err)));
            }
            config.addMapConfig(mapConfig);
        }
        // Live heartbeats change every second: kept in memory with their backup, never written through.
        config.addMapConfig(new MapConfig(StateMaps.BEATS).setBackupCount(BACKUPS).setAsyncBackupCount(0));
        return config;
    }

    /** Starts the coordinator's member of this cluster and returns the state it serves. */
    public JobState start(StateFiles files, PrintStream err) {
        return start(files, JobState.COORDINATOR, err);
    }

    /**
     * Starts a member of this cluster and returns the state it serves.
     *
     * @param writer who writes events through this member: the coordinator, or a node daemon by its node's name
     */
    public JobState start(StateFiles files, String writer, PrintStream err) {
        HazelcastInstance member = Hazelcast.newHazelcastInstance(config(files, err));
        JobState state = new JobState(member, writer);
        state.openMapsInBackground();
        return state;
    }
}
