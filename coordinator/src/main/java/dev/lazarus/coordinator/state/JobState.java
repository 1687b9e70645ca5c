package dev.lazarus.coordinator.state;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastJsonValue;
import com.hazelcast.map.IMap;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * A job's global recovery state in the coordinator's Hazelcast cluster: five maps (job, ranks, catalog, events,
 * statistics) of JSON records, each with a synchronous backup on another member and written through to the state
 * directory ({@link JobCluster}). Any member reads and writes it; losing one member loses nothing once a second one
 * holds the backups, and a new cluster of the same job loads it back from disk.
 */
public final class JobState implements StateSink, AutoCloseable {
    /** Who writes events through this member (the coordinator; node daemons will write as themselves). */
    static final String WRITER = "coordinator";

    private final HazelcastInstance member;

    /** @param member a member of the job's cluster, configured by {@link JobCluster} */
    public JobState(HazelcastInstance member) {
        this.member = member;
    }

    @Override
    public void putJob(StateRecords.Job job) {
        map(StateMaps.JOB).put(StateMaps.THE, json(job));
    }

    public Optional<StateRecords.Job> job() {
        return read(StateMaps.JOB, StateMaps.THE, StateRecords.Job.class);
    }

    @Override
    public void putRank(StateRecords.Rank rank) {
        map(StateMaps.RANKS).put(StateMaps.rank(rank.rank()), json(rank));
    }

    /** @return every rank's record, by rank */
    public List<StateRecords.Rank> ranks() {
        return all(StateMaps.RANKS, StateRecords.Rank.class).stream()
                .sorted(Comparator.comparingInt(StateRecords.Rank::rank)).toList();
    }

    @Override
    public void putVersion(StateRecords.Version version) {
        map(StateMaps.CATALOG).put(StateMaps.version(version.level(), version.version()), json(version));
    }

    /** @return the catalog, by level then version */
    public List<StateRecords.Version> catalog() {
        return all(StateMaps.CATALOG, StateRecords.Version.class).stream()
                .sorted(Comparator.comparing(StateRecords.Version::level)
                        .thenComparingLong(StateRecords.Version::version)).toList();
    }

    @Override
    public void addEvent(StateRecords.Event event) {
        map(StateMaps.EVENTS).put(StateMaps.event(event.timeMillis(), WRITER), json(event));
    }

    /** @return every event, oldest first */
    public List<StateRecords.Event> events() {
        IMap<String, HazelcastJsonValue> events = map(StateMaps.EVENTS);
        return events.keySet().stream().sorted()
                .map(key -> StateJson.read(events.get(key).toString(), StateRecords.Event.class)).toList();
    }

    @Override
    public void putStats(StateRecords.Stats stats) {
        map(StateMaps.STATS).put(StateMaps.THE, json(stats));
    }

    public Optional<StateRecords.Stats> stats() {
        return read(StateMaps.STATS, StateMaps.THE, StateRecords.Stats.class);
    }

    /** @return the cluster's name, this member's address and the member count, for a log line */
    public String describe() {
        return "cluster " + member.getConfig().getClusterName() + ", " + members() + " member(s), this one at "
                + member.getCluster().getLocalMember().getAddress();
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
