package dev.lazarus.store.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class BackgroundPriorityTest {
    /** @return the calling thread's niceness, field 19 of /proc/thread-self/stat */
    private static int niceness() throws Exception {
        String stat = Files.readString(Path.of("/proc/thread-self/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(fields[16]); // the fields after the command name start at field 3
    }

    @Test
    void onlyTheCallingThreadGoesToTheBackground() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self/stat")) && "amd64".equals(System.getProperty("os.arch")));
        int before = niceness();
        AtomicReference<String> described = new AtomicReference<>();
        AtomicReference<Integer> after = new AtomicReference<>();
        Thread worker = Thread.ofPlatform().start(() -> {
            described.set(BackgroundPriority.lowerCurrentThread());
            try {
                after.set(niceness());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        worker.join();
        assertTrue(described.get().matches("thread \\d+: nice 19, idle I/O class"), described.get());
        assertEquals(19, after.get());
        assertEquals(before, niceness(), "the caller's own thread is untouched");
    }
}
