package dev.lazarus.coordinator.launch;

import dev.lazarus.mpi.launch.HeartbeatFile.HeartbeatSnapshot;

import java.util.List;
import java.util.Optional;

/** Sees a running launch's heartbeats each time the launcher reads them ({@link JobLauncher#WATCH_PERIOD}). */
@FunctionalInterface
public interface LaunchWatcher {
    /** Watches nothing. */
    LaunchWatcher NONE = heartbeats -> { };

    /** @param heartbeats every rank's heartbeat now (empty for a rank that has not reached its main loop) */
    void watched(List<Optional<HeartbeatSnapshot>> heartbeats);
}
