package dev.lazarus.mpi.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What /proc says of real child processes: a command line longer than a page, and one environment entry. */
class ProcFilesTest {
    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void stop() {
        children.forEach(Process::destroyForcibly);
    }

    private Process start(ProcessBuilder builder) throws Exception {
        Process process = builder.start();
        children.add(process);
        return process;
    }

    @Test
    void aCommandLineLongerThanAPageIsReadWhole() throws Exception {
        // sleep's argument list: a long class path-like word, then the marker a rank's command line would carry.
        String word = "x".repeat(9000);
        Process child = start(new ProcessBuilder("sh", "-c", "sleep 60", word, "RankMain"));
        Optional<String> line = ProcFiles.commandLine(child.pid());
        assertEquals(Optional.of("sh -c sleep 60 " + word + " RankMain"), line);
        assertFalse(child.toHandle().info().commandLine().orElse("").contains("RankMain"),
                "ProcessHandle.Info's command line stops at a page: the reason ProcFiles exists");
        assertEquals(Optional.empty(), ProcFiles.commandLine(Long.MAX_VALUE), "no such process");
    }

    @Test
    void anEnvironmentEntryIsMatchedWhole() throws Exception {
        ProcessBuilder builder = new ProcessBuilder("sleep", "60");
        builder.environment().put("LAZARUS_STATUS_DIR", "/tmp/launch-1");
        Process child = start(builder);
        assertTrue(ProcFiles.environmentHas(child.pid(), "LAZARUS_STATUS_DIR", "/tmp/launch-1"));
        assertFalse(ProcFiles.environmentHas(child.pid(), "LAZARUS_STATUS_DIR", "/tmp/launch"), "a prefix is not it");
        assertFalse(ProcFiles.environmentHas(child.pid(), "LAZARUS_STATUS_DIR", "/tmp/launch-10"));
        assertFalse(ProcFiles.environmentHas(Long.MAX_VALUE, "LAZARUS_STATUS_DIR", "/tmp/launch-1"));
    }

    /**
     * A zombie (ended, not reaped: its parent is alive and never waits) is alive to {@link ProcessHandle#isAlive} and
     * ended to {@link ProcFiles#ended}; a running process is neither ended; a gone one is.
     */
    @Test
    void aZombieHasEndedThoughProcessHandleCallsItAlive() throws Exception {
        // The shell starts a short child, then becomes a sleep that never reaps it.
        Process parent = start(new ProcessBuilder("sh", "-c", "sleep 0.1 & exec sleep 60"));
        ProcessHandle child = null;
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            child = parent.children().findFirst().orElse(null);
            if (child != null && ProcFiles.ended(child.pid())) {
                break;
            }
            Thread.sleep(20);
        }
        assertTrue(child != null && ProcFiles.ended(child.pid()), "the child became a zombie");
        assertTrue(child.isAlive(), "ProcessHandle calls a zombie alive: the reason ended exists");
        assertFalse(ProcFiles.ended(parent.pid()), "a running process has not ended");
        assertTrue(ProcFiles.ended(Long.MAX_VALUE), "no such process");
    }
}
