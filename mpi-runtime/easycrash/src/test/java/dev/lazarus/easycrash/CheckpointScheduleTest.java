package dev.lazarus.easycrash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.checkpoint.CheckpointSettings;
import dev.lazarus.mpi.launch.LaunchDirective;
import dev.lazarus.mpi.local.SingleRankComm;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** When a run checkpoints: a fixed interval, or {@code auto} from what it measures, the MTBF and R. */
class CheckpointScheduleTest {
    private final ByteArrayOutputStream text = new ByteArrayOutputStream();
    private final PrintStream log = new PrintStream(text, true, StandardCharsets.UTF_8);

    private static CheckpointSettings settings(String every, String mtbf) {
        Properties properties = new Properties();
        properties.setProperty(CheckpointSettings.EVERY, every);
        if (mtbf != null) {
            properties.setProperty(CheckpointSettings.MTBF, mtbf);
        }
        return new CheckpointSettings(properties, Map.of()).conclude("app");
    }

    private static int[] checkpointsOf(CheckpointSchedule schedule, int iterations, long checkpointNanos)
            throws InterruptedException {
        SingleRankComm comm = new SingleRankComm();
        schedule.mainLoopStarts();
        int[] at = new int[iterations + 1];
        for (int it = 1; it <= iterations; it++) {
            Thread.sleep(2); // an iteration of about 2 ms
            if (schedule.due(it)) {
                at[it] = 1;
                schedule.checkpointed(comm, it, checkpointNanos);
            }
        }
        return at;
    }

    @Test
    void aFixedIntervalCheckpointsEveryNthIteration() throws Exception {
        int[] at = checkpointsOf(CheckpointSchedule.of(settings("4", null), LaunchDirective.none(), log), 12, 1);
        assertEquals(List.of(4, 8, 12), IntStream.rangeClosed(1, 12).filter(i -> at[i] == 1).boxed()
                .toList());
        assertEquals("", text.toString(StandardCharsets.UTF_8));
    }

    @Test
    void autoCheckpointsAfterTheFirstIterationThenAtDalysIntervalAndSaysWhy() throws Exception {
        // C = 1 ms, iterations of about 2 ms, MTBF 2 s: Daly gives about sqrt(2 x 0.001 x 2) = 63 ms, some 30 iterations.
        CheckpointSettings auto = settings("auto", "2");
        assertTrue(auto.auto() && auto.enabled() && auto.every() == 0);
        int[] at = checkpointsOf(CheckpointSchedule.of(auto, LaunchDirective.none(), log), 100, 1_000_000);
        assertEquals(1, at[1], "the first iteration is followed by the first measurement");
        int second = IntStream.rangeClosed(2, 100).filter(i -> at[i] == 1).findFirst().orElseThrow();
        assertTrue(second > 5 && second < 60, "next checkpoint after iteration " + second);
        String said = text.toString(StandardCharsets.UTF_8);
        assertTrue(said.startsWith("lazarus: checkpoint interval auto: every "), said);
        assertTrue(said.contains("MTBF 2.0 s configured, R 0.00"), said);
    }

    @Test
    void theCoordinatorsEstimatesAreUsedUnlessAnMtbfIsConfigured() throws Exception {
        LaunchDirective estimates = LaunchDirective.none().withEstimates(2.0, 0.5);
        checkpointsOf(CheckpointSchedule.of(settings("auto", null), estimates, log), 2, 1_000_000);
        assertTrue(text.toString(StandardCharsets.UTF_8).contains("MTBF 2.0 s measured by the coordinator, R 0.50:"
                + " rollbacks every 4.0 s"), text.toString(StandardCharsets.UTF_8));
        text.reset();
        checkpointsOf(CheckpointSchedule.of(settings("auto", "7200"), estimates, log), 2, 1_000_000);
        assertTrue(text.toString(StandardCharsets.UTF_8).contains("MTBF 2.0 h configured, R 0.50"),
                text.toString(StandardCharsets.UTF_8));
        text.reset();
        checkpointsOf(CheckpointSchedule.of(settings("auto", null), LaunchDirective.none(), log), 2, 1_000_000);
        assertTrue(text.toString(StandardCharsets.UTF_8).contains("MTBF 24.0 h assumed (set --mtbf)"),
                text.toString(StandardCharsets.UTF_8));
        assertFalse(settings("0", null).enabled());
    }
}
