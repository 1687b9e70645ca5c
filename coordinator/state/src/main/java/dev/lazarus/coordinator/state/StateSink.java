package dev.lazarus.coordinator.state;

import java.io.IOException;

/** Where the coordinator records the job's state: the cluster's maps ({@link JobState}) or the disk directly. */
public interface StateSink {

    void putJob(StateRecords.Job job) throws IOException;

    void putRank(StateRecords.Rank rank) throws IOException;

    void putVersion(StateRecords.Version version) throws IOException;

    void addEvent(StateRecords.Event event) throws IOException;

    void putStats(StateRecords.Stats stats) throws IOException;
}
