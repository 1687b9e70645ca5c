package dev.lazarus.coordinator.launch;

import dev.lazarus.mpi.launch.HeartbeatFile.HeartbeatSnapshot;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Sees a running launch: where its status directory is when it starts, and its heartbeats each time the launcher reads
 * them ({@link JobLauncher#WATCH_PERIOD}).
 */
@FunctionalInterface
public interface LaunchWatcher {
    /** Watches nothing. */
    LaunchWatcher NONE = heartbeats -> { };

    /** @param heartbeats every rank's heartbeat now (empty for a rank that has not reached its main loop) */
    void watched(List<Optional<HeartbeatSnapshot>> heartbeats);

    /** @param statusDirectory the launch's status directory, made before its ranks start (nothing by default) */
    default void started(Path statusDirectory) {
    }

    /** @return a watcher that tells this one and then {@code other} */
    default LaunchWatcher and(LaunchWatcher other) {
        LaunchWatcher first = this;
        return new LaunchWatcher() {
            @Override
            public void watched(List<Optional<HeartbeatSnapshot>> heartbeats) {
                first.watched(heartbeats);
                other.watched(heartbeats);
            }

            @Override
            public void started(Path statusDirectory) {
                first.started(statusDirectory);
                other.started(statusDirectory);
            }
        };
    }
}
