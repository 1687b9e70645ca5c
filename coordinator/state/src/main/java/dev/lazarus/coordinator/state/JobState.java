package dev.lazarus.coordinator.state;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import com.hazelcast.core.DistributedObject;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastJsonValue;
import com.hazelcast.map.IMap;

/**
 * A job's global recovery state in the coordinator's Hazelcast cluster: six maps (job, ranks, catalog, events,
 * statistics, the launch running now) of JSON records, each with a synchronous backup on another member and written through to the state
 * directory ({@link JobCluster}). Any member reads and writes it; losing one member loses nothing once a second one
 * holds the backups, and a new cluster of the same job loads it back from disk.
 */
public final class JobState implements StateSink, AutoCloseable {
    /** The coordinator's name as the writer of events. */
    public static final String COORDINATOR = "coordinator";

    private final HazelcastInstance member;
    private final String writer;
    /** The keys written through this member, by map: what {@link #missing()} looks for. */
    private final Map<String, Set<String>> written = new ConcurrentHashMap<>();

    /**
     * @param member a member of the job's cluster, configured by {@link JobCluster}
     * @param writer who writes events through it (part of each event's key)
     */
    public JobState(HazelcastInstance member, String writer) {
        this.member = member;
        this.writer = writer;
    }

    @Override
    public void putJob(StateRecords.Job job) {
        put(StateMaps.JOB, StateMaps.THE, job);
    }

    public Optional<StateRecords.Job> job() {
        return read(StateMaps.JOB, StateMaps.THE, StateRecords.Job.class);
    }

    @Override
    public void putRank(StateRecords.Rank rank) {
        put(StateMaps.RANKS, StateMaps.rank(rank.rank()), rank);
    }

    /** @return every rank's record, by rank */
    public List<StateRecords.Rank> ranks() {
        return all(StateMaps.RANKS, StateRecords.Rank.class).stream()
                .sorted(Comparator.comparingInt(StateRecords.Rank::rank)).toList();
    }

    @Override
    public void putVersion(StateRecords.Version version) {
        put(StateMaps.CATALOG, StateMaps.version(version.level(), version.version()), version);
    }

    /** @return the catalog, by level then version */
    public List<StateRecords.Version> catalog() {
        return all(StateMaps.CATALOG, StateRecords.Version.class).stream()
                .sorted(Comparator.comparing(StateRecords.Version::level)
                        .thenComparingLong(StateRecords.Version::version)).toList();
    }

    @Override
    public void addEvent(StateRecords.Event event) {
        put(StateMaps.EVENTS, StateMaps.event(event.timeMillis(), writer), event);
    }

    /** @return every event, oldest first */
    public List<StateRecords.Event> events() {
        IMap<String, HazelcastJsonValue> events = map(StateMaps.EVENTS);
        return events.keySet().stream().sorted()
                .map(key -> StateJson.read(events.get(key).toString(), StateRecords.Event.class)).toList();
    }

    @Override
    public void putStats(StateRecords.Stats stats) {
        put(StateMaps.STATS, StateMaps.THE, stats);
    }

    public Optional<StateRecords.Stats> stats() {
        return read(StateMaps.STATS, StateMaps.THE, StateRecords.Stats.class);
    }

    /** @return the cluster's name, this member's address and the member count, for a log line */
    public String describe() {
        return "cluster " + member.getConfig().getClusterName() + ", " + members() + " member(s), this one at "
                + member.getCluster().getLocalMember().getAddress();
    }

    /** Records a rank's live heartbeat (in the cluster only). */
    public void putBeat(StateRecords.Beat beat) {
        map(StateMaps.BEATS).set(StateMaps.rank(beat.rank()), json(beat));
    }

    /** @return every rank's live heartbeat the node daemons recorded, by rank */
    public Map<Integer, StateRecords.Beat> beats() {
        Map<Integer, StateRecords.Beat> beats = new TreeMap<>();
        for (HazelcastJsonValue value : map(StateMaps.BEATS).values()) {
            StateRecords.Beat beat = StateJson.read(value.toString(), StateRecords.Beat.class);
            beats.put(beat.rank(), beat);
        }
        return beats;
    }

    /** Says which launch runs now, for the node daemons that watch its ranks. */
    public void putLaunch(StateRecords.Launch launch) {
        put(StateMaps.LAUNCH, StateMaps.THE, launch);
    }

    /** @return the launch running now, as the coordinator last said */
    public Optional<StateRecords.Launch> launch() {
        return read(StateMaps.LAUNCH, StateMaps.THE, StateRecords.Launch.class);
    }

    /** @return this member's address, {@code host:port}: where others join the cluster */
    public String address() {
        var address = member.getCluster().getLocalMember().getAddress();
        return address.getHost() + ":" + address.getPort();
    }

    /** @return how many records were written through this member */
    public int writtenCount() {
        return written.values().stream().mapToInt(Set::size).sum();
    }

    /**
     * @return the keys ({@code map/key}) written through this member that the cluster no longer holds in memory: what
     *         losing members without their backups in place would lose (the state directory still has them, written
     *         through). Reads the maps' keys as held, without loading from disk.
     */
    public List<String> missing() {
        return written.entrySet().stream().flatMap(e -> {
            Set<String> held = map(e.getKey()).keySet();
            return e.getValue().stream().filter(key -> !held.contains(key)).map(key -> e.getKey() + "/" + key);
        }).sorted().toList();
    }

    /** @return how many members the cluster has now */
    public int members() {
        return member.getCluster().getMembers().size();
    }

    /**
     * @return whether every partition has its backups in place and no migration is under way: only then does losing
     *         one member lose nothing (right after members join, partitions are still moving)
     */
    public boolean safe() {
        return member.getPartitionService().isClusterSafe();
    }

    private void put(String map, String key, Object record) {
        map(map).put(key, json(record));
        written.computeIfAbsent(map, m -> ConcurrentHashMap.newKeySet()).add(key);
    }

    /**
     * Opens every state map at once, each on a thread of its own, and returns at once. Opening a map written through
     * to disk waits for its load, and Hazelcast checks the load by partition and sleeps a whole second whenever one
     * is not loaded yet; opened one after the other on first use, the six maps held the first records back by
     * seconds, and the end of a job that waits for them (measured: 1.3 to 5.2 s after the run's summary line).
     */
    void openMapsInBackground() {
        for (String name : StateMaps.ALL) {
            Thread.ofVirtual().name("lazarus-state-open-" + name).start(() -> {
                try {
                    map(name);
                } catch (RuntimeException e) {
                    // The member shut down first; the map's next use says what is wrong, where it matters.
                }
            });
        }
    }

    /** @return the names of the maps open in this member's cluster (opened by any member) */
    Set<String> openMaps() {
        return member.getDistributedObjects().stream().filter(IMap.class::isInstance)
                .map(DistributedObject::getName).collect(Collectors.toSet());
    }

    private IMap<String, HazelcastJsonValue> map(String name) {
        return member.getMap(name);
    }

    private static HazelcastJsonValue json(Object record) {
        return new HazelcastJsonValue(StateJson.write(record));
    }

    private <T> Optional<T> read(String map, String key, Class<T> type) {
        HazelcastJsonValue value = map(map).get(key);
        return value == null ? Optional.empty() : Optional.of(StateJson.read(value.toString(), type));
    }

    private <T> List<T> all(String map, Class<T> type) {
        return map(map).values().stream().map(value -> StateJson.read(value.toString(), type)).toList();
    }

    /** Ends this member at once, as a killed process would: no migration, no goodbye (tests of member loss). */
    void crash() {
        member.getLifecycleService().terminate();
    }

    /** Leaves the cluster gracefully: its partitions migrate to the other members first. */
    @Override
    public void close() {
        member.shutdown();
    }
}
