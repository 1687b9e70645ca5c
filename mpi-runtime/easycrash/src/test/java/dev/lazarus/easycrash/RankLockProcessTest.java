package dev.lazarus.easycrash;

import dev.lazarus.easycrash.heap.RankLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One writer per heap: while a live rank (here in another JVM) holds a rank's NVM state, attaching it again is refused
 * and leaves the files as they were; once that process is killed with SIGKILL the kernel frees the lock and the heap
 * resumes.
 */
class RankLockProcessTest {
    @TempDir
    Path nvm;

    private PersistentHeap.Config config() {
        return new PersistentHeap.Config(nvm, "locked", 0, 1, 1 << 20, "app --class S", null);
    }

    @Test
    void aLiveHolderInAnotherProcessBlocksAttachUntilItIsKilled() throws Exception {
        Process holder = startHolder();
        try {
            Path heapFile = nvm.resolve("locked").resolve("rank-0.heap");
            byte[] before = Files.readAllBytes(heapFile);
            RankLock.NvmStateInUseException refused = assertThrows(RankLock.NvmStateInUseException.class,
                    () -> PersistentHeap.open(config()));
            assertTrue(refused.getMessage().contains("is in use by a running rank of an earlier launch"),
                    refused.getMessage());
            assertThrows(RankLock.NvmStateInUseException.class,
                    () -> PersistentHeap.openFresh(config(), RecoveryState.fresh("restart off")));
            assertArrayEquals(before, Files.readAllBytes(heapFile), "a refused attach must not touch the heap");
            assertTrue(Files.notExists(heapFile.resolveSibling("rank-0.heap.unusable")));
        } finally {
            holder.destroyForcibly(); // SIGKILL
            assertTrue(holder.waitFor(30, TimeUnit.SECONDS));
        }
        try (PersistentHeap heap = PersistentHeap.open(config())) {
            assertEquals(RecoveryState.Kind.RESUMABLE, heap.recovery().kind(), heap.recovery().reason());
            assertEquals(3, heap.recovery().iteration());
            assertEquals(5.0, heap.doubles("u", 100, ObjectRole.CANDIDATE).get(5));
        }
    }

    @Test
    void aSecondAttachInTheSameJvmIsRefusedUntilTheFirstCloses() throws Exception {
        try (PersistentHeap first = PersistentHeap.open(config())) {
            first.bookmark(1);
            assertThrows(RankLock.NvmStateInUseException.class, () -> PersistentHeap.open(config()));
        }
        try (PersistentHeap again = PersistentHeap.open(config())) {
            assertEquals(RecoveryState.Kind.RESUMABLE, again.recovery().kind(), again.recovery().reason());
            assertEquals(1, again.recovery().iteration(), "the refused attach left the first one's bookmark");
        }
    }

    private Process startHolder() throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> !a.startsWith("-agentlib") && !a.startsWith("-javaagent")).toList());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), HeapHolder.class.getName(),
                nvm.toString(), "locked"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        for (String line; (line = out.readLine()) != null; ) {
            if (line.equals("attached")) {
                return process;
            }
            seen.append(line).append('\n');
        }
        throw new AssertionError("the holder process ended before attaching:\n" + seen);
    }
}
