package dev.lazarus.checkpoint;

import dev.lazarus.mpi.launch.HeartbeatFile;
import dev.lazarus.store.files.SecureFiles;

import java.nio.file.FileSystemException;
import java.util.HashSet;
import java.util.Set;

/**
 * What went wrong with one rank's checkpoint levels, for its heartbeat: the newest version a level had no room for,
 * and the newest version a restore found corrupt (which the coordinator then stops offering: it is left out of the
 * versions the rank says it holds on L1).
 */
final class LevelIncidents {
    /** Level numbers as the heartbeat gives them. */
    static final int L1 = 1;
    static final int L3 = 3;

    private HeartbeatFile.Incidents newest = HeartbeatFile.Incidents.NONE;
    private final Set<Long> corruptOnL1 = new HashSet<>();

    /** A write of {@code version} to {@code level} failed for lack of room. */
    synchronized void full(int level, long version) {
        newest = new HeartbeatFile.Incidents(level, version, newest.corruptLevel(), newest.corruptVersion());
    }

    /** A version reached {@code level}: it has room again, and a full level said before is no longer so. */
    synchronized void roomOn(int level) {
        if (newest.fullLevel() == level) {
            newest = new HeartbeatFile.Incidents(0, 0, newest.corruptLevel(), newest.corruptVersion());
        }
    }

    /** A restore found {@code version} on {@code level} corrupt. */
    synchronized void corrupt(int level, long version) {
        newest = new HeartbeatFile.Incidents(newest.fullLevel(), newest.fullVersion(), level, version);
        if (level == L1) {
            corruptOnL1.add(version);
        }
    }

    /** @return whether a restore found {@code version} corrupt on L1 */
    synchronized boolean corruptOnL1(long version) {
        return corruptOnL1.contains(version);
    }

    synchronized HeartbeatFile.Incidents newest() {
        return newest;
    }

    /** @return whether {@code failure} (or a cause of it) is a file system without room: ENOSPC or EDQUOT */
    static boolean noRoom(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SecureFiles.NoRoomException) {
                return true;
            }
            String text = t instanceof FileSystemException fs ? fs.getReason() : t.getMessage();
            if (noRoom(text)) {
                return true;
            }
        }
        return false;
    }

    /** @return whether an error's text says a file system had no room */
    static boolean noRoom(String text) {
        return text != null && (text.contains("No space left on device") || text.contains("Disk quota exceeded"));
    }
}
