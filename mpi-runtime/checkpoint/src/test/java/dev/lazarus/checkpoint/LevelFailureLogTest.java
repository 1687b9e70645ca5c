package dev.lazarus.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A level that fails version after version is said once, and again when a version reaches it. */
class LevelFailureLogTest {

    @Test
    void aRunOfFailuresIsSaidOnceAndItsEndWithTheCount() {
        LevelFailureLog log = new LevelFailureLog();
        assertEquals(Optional.empty(), log.reached("L2", 100), "nothing failed yet");
        assertEquals(Optional.of("version 200 did not reach L2: Broken pipe (the next versions that do not are not"
                + " said until one does)"), log.failed("L2", 200, "Broken pipe"));
        assertEquals(Optional.empty(), log.failed("L2", 400, "Broken pipe"));
        // Each level has its own run.
        assertEquals(Optional.of("version 400 did not reach L3: disk full (the next versions that do not are not"
                + " said until one does)"), log.failed("L3", 400, "disk full"));
        assertEquals(Optional.empty(), log.failed("L2", 600, "Connection refused"));
        assertEquals(Optional.of("version 800 reached L2 again; 3 version(s) from 200 on did not"),
                log.reached("L2", 800));
        assertEquals(Optional.empty(), log.reached("L2", 1000));
        assertEquals(Optional.of("version 1200 did not reach L2: Broken pipe (the next versions that do not are not"
                + " said until one does)"), log.failed("L2", 1200, "Broken pipe"), "a new run is said again");
    }
}
