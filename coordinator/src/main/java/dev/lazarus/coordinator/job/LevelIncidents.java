package dev.lazarus.coordinator.job;

import dev.lazarus.coordinator.launch.LaunchOutcome;
import dev.lazarus.mpi.launch.HeartbeatFile.HeartbeatSnapshot;
import dev.lazarus.mpi.launch.HeartbeatFile;
import dev.lazarus.recovery.policy.Level;

import java.io.PrintStream;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * What the ranks' heartbeats say went wrong with the checkpoint levels: a level without room for a version (a
 * failure of such a launch is classified as disk full), and a version a restore found corrupt, which is said once,
 * recorded, and not offered to a decision again.
 */
final class LevelIncidents {
    private final Set<String> corrupt = new HashSet<>();
    private final PrintStream err;

    LevelIncidents(PrintStream err) {
        this.err = err;
    }

    /** @return the first rank's full level in {@code outcome}, described for the failure line, if any rank had one */
    static Optional<String> full(LaunchOutcome outcome) {
        List<Optional<HeartbeatSnapshot>> beats = outcome.heartbeats();
        for (int rank = 0; rank < beats.size(); rank++) {
            Optional<HeartbeatSnapshot> beat = beats.get(rank);
            if (beat.isPresent() && beat.get().incidents().full()) {
                HeartbeatFile.Incidents incidents = beat.get().incidents();
                return Optional.of(String.format(Locale.ROOT, "L%d had no room for version %d of rank %d on node %s",
                        incidents.fullLevel(), incidents.fullVersion(), rank, beat.get().node()));
            }
        }
        return Optional.empty();
    }

    /** Says and records each version a rank of {@code outcome} found corrupt that was not said before. */
    void noteCorrupt(LaunchOutcome outcome, JobLedger ledger) {
        List<Optional<HeartbeatSnapshot>> beats = outcome.heartbeats();
        for (int rank = 0; rank < beats.size(); rank++) {
            Optional<HeartbeatSnapshot> beat = beats.get(rank);
            if (beat.isEmpty() || !beat.get().incidents().corrupt()) {
                continue;
            }
            HeartbeatFile.Incidents incidents = beat.get().incidents();
            if (corrupt.add(key(incidents.corruptLevel(), incidents.corruptVersion()))) {
                String line = String.format(Locale.ROOT, "corrupt checkpoint: rank %d found version %d on L%d corrupt"
                        + " (it failed its checksum) and restored an older one; it is not offered again", rank,
                        incidents.corruptVersion(), incidents.corruptLevel());
                err.println("lazarus: " + line);
                ledger.incident("corrupt", line);
            }
        }
    }

    /** @return {@code versions} without those found corrupt */
    List<RestoreSources.Listed> withoutCorrupt(List<RestoreSources.Listed> versions) {
        return versions.stream().filter(v -> !corrupt.contains(key(levelNumber(v.option().level()),
                v.option().iteration()))).toList();
    }

    private static int levelNumber(Level level) {
        // L2 offers L1's versions rebuilt: a version corrupt on L1 is corrupt there too.
        return level == Level.L3 ? 3 : 1;
    }

    private static String key(int level, long version) {
        return level + ":" + version;
    }
}
