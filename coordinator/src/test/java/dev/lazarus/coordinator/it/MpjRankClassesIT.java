package dev.lazarus.coordinator.it;

import dev.lazarus.testing.LazarusProcess;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * MPJ's rank threads share one copy of the runtime's and the bundled applications' classes (compiled once by the
 * JIT), while an application from {@code --classpath} keeps a copy per rank, with static fields of its own, as MPJ
 * Express gives it (see {@link RankClassesProbeApp}).
 */
class MpjRankClassesIT {

    @Test
    void theRankThreadsShareTheRuntimeAndKeepTheUsersClassesApart(@TempDir Path out) throws Exception {
        Path testClasses = Path.of(RankClassesProbeApp.class.getProtectionDomain().getCodeSource().getLocation()
                .toURI());
        LazarusProcess.Result result = LazarusProcess.run(Duration.ofMinutes(2), "run", "--np", "3", "--backend",
                "mpj", "--classpath", testClasses.toString(), "--timeout", "100",
                RankClassesProbeApp.class.getName(), out.toString());
        assertEquals(0, result.exitStatus(), result.output());
        List<Map<String, String>> ranks = List.of(read(out, 0), read(out, 1), read(out, 2));
        for (Map<String, String> rank : ranks) {
            assertEquals("1", rank.get("count"), "a rank counted another's: " + ranks);
            assertEquals(ranks.getFirst().get("runtime"), rank.get("runtime"), ranks.toString());
            assertEquals(rank.get("runtime"), rank.get("bundled"), ranks.toString());
            assertNotEquals(rank.get("runtime"), rank.get("own"), ranks.toString());
        }
        assertEquals(3, ranks.stream().map(r -> r.get("own")).distinct().count(), "one loader per rank: " + ranks);
    }

    private static Map<String, String> read(Path dir, int rank) throws Exception {
        Map<String, String> values = new HashMap<>();
        for (String line : Files.readAllLines(dir.resolve("rank-classes-" + rank + ".txt"))) {
            String[] pair = line.split("=", 2);
            values.put(pair[0], pair[1]);
        }
        return values;
    }
}
