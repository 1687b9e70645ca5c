package dev.lazarus.mpi.launch;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParentWatchTest {
    /** A rank JVM stand-in: watches its parent, says so in the file {@code args[0]}, then idles for two minutes. */
    public static final class Rank {
        public static void main(String[] args) throws Exception {
            ParentWatch.start();
            Files.writeString(Path.of(args[0]), "watching");
            Thread.sleep(TimeUnit.MINUTES.toMillis(2));
        }
    }

    @Test
    void aJvmWhoseParentIsKilledEnds(@TempDir Path dir) throws Exception {
        // As MPJ's starter JVM killed under its rank JVM: the parent dies, the rank JVM is re-parented to init.
        Path pidFile = dir.resolve("rank.pid");
        Path watching = dir.resolve("watching");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String rank = "'" + java + "' -cp '" + System.getProperty("java.class.path") + "' '" + Rank.class.getName()
                + "' " + watching;
        Process parent = new ProcessBuilder(List.of("sh", "-c", rank + " & echo $! > " + pidFile + ".tmp && mv "
                + pidFile + ".tmp " + pidFile + " && wait")).inheritIO().start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!(Files.exists(pidFile) && Files.exists(watching)) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        ProcessHandle child = ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip())).orElseThrow();
        try {
            assertTrue(Files.exists(watching) && child.isAlive(), "the rank JVM did not start watching");
            parent.destroyForcibly().waitFor();
            child.onExit().get(20, TimeUnit.SECONDS);
            assertFalse(child.isAlive());
        } finally {
            child.destroyForcibly();
        }
    }
}
