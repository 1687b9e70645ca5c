package dev.lazarus.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.mpi.launch.HeartbeatFile;
import dev.lazarus.store.files.SecureFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import org.junit.jupiter.api.Test;

/** A rank's level incidents: the newest full level until a version fits again, and corrupt versions found. */
class LevelIncidentsTest {

    @Test
    void aFullLevelIsSaidUntilAVersionReachesItAgain() {
        LevelIncidents incidents = new LevelIncidents();
        assertEquals(HeartbeatFile.Incidents.NONE, incidents.newest());
        incidents.full(LevelIncidents.L1, 600);
        assertEquals(new HeartbeatFile.Incidents(1, 600, 0, 0), incidents.newest());
        incidents.roomOn(LevelIncidents.L3);
        assertTrue(incidents.newest().full(), "L3 having room says nothing of L1");
        incidents.roomOn(LevelIncidents.L1);
        assertFalse(incidents.newest().full());
    }

    @Test
    void aCorruptVersionIsRememberedPerLevel() {
        LevelIncidents incidents = new LevelIncidents();
        incidents.corrupt(LevelIncidents.L1, 800);
        incidents.corrupt(LevelIncidents.L3, 400);
        assertEquals(new HeartbeatFile.Incidents(0, 0, 3, 400), incidents.newest(), "the newest found");
        assertTrue(incidents.corruptOnL1(800));
        assertFalse(incidents.corruptOnL1(400), "corrupt on L3, not on L1");
    }

    @Test
    void noRoomIsTheFileSystemsWordForItWhereverItIsSaid() {
        assertTrue(LevelIncidents.noRoom(new SecureFiles.NoRoomException("No space left on device")));
        assertTrue(LevelIncidents.noRoom(new FileSystemException("/l1/v600/rank-0.data", null,
                "No space left on device")));
        assertTrue(LevelIncidents.noRoom(new UncheckedIOException(new IOException("write /l1/x: Disk quota exceeded"))));
        assertTrue(LevelIncidents.noRoom("IOException: No space left on device"));
        assertFalse(LevelIncidents.noRoom(new IOException("Permission denied")));
        assertFalse(LevelIncidents.noRoom((String) null));
    }
}
