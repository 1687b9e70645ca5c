package dev.lazarus.coordinator.state;

import java.io.IOException;

/**
 * Writes the state's records straight into the state directory, with the keys and JSON the cluster's maps use, so
 * that a cluster started later loads them as its own (the coordinator records this way until the job's first
 * failure, when its Hazelcast member starts).
 */
public final class StateJournal implements StateSink {
    private final StateFiles files;

    public StateJournal(StateFiles files) {
        this.files = files;
    }

    @Override
    public void putJob(StateRecords.Job job) throws IOException {
        files.put(StateMaps.JOB, StateMaps.THE, StateJson.write(job));
    }

    @Override
    public void putRank(StateRecords.Rank rank) throws IOException {
        files.put(StateMaps.RANKS, StateMaps.rank(rank.rank()), StateJson.write(rank));
    }

    @Override
    public void putVersion(StateRecords.Version version) throws IOException {
        files.put(StateMaps.CATALOG, StateMaps.version(version.level(), version.version()), StateJson.write(version));
    }

    @Override
    public void addEvent(StateRecords.Event event) throws IOException {
        files.put(StateMaps.EVENTS, StateMaps.event(event.timeMillis(), JobState.COORDINATOR), StateJson.write(event));
    }

    @Override
    public void putStats(StateRecords.Stats stats) throws IOException {
        files.put(StateMaps.STATS, StateMaps.THE, StateJson.write(stats));
    }
}
