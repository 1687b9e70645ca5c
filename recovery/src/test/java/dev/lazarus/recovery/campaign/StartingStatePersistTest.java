package dev.lazarus.recovery.campaign;

import dev.lazarus.easycrash.RecomputingRun;
import dev.lazarus.easycrash.trace.AccessTracer;
import dev.lazarus.mpi.local.SingleRankComm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A production run (RecomputingRun) writes its starting state back before the first iteration, on a real heap. */
class StartingStatePersistTest {
    @TempDir
    Path nvm;

    @Test
    void aFreshRunWritesEveryCandidateBackBeforeItsFirstIteration() throws Exception {
        List<String> events = new ArrayList<>();
        AccessTracer recorder = new AccessTracer() {
            @Override
            public void load(long address, int bytes) {
            }

            @Override
            public void store(long address, int bytes) {
            }

            @Override
            public void persist(long address, long length) {
                events.add("persist " + length);
            }

            @Override
            public void regionEnd(int region, int iteration) {
            }

            @Override
            public void iterationBegin(int iteration) {
                events.add("iteration " + iteration);
            }
        };
        RecomputingRun.Outcome outcome = RecomputingRun.run(new SingleRankComm(), new ReadMostlyApp(),
                CampaignTarget.settings(nvm, null, false), null, recorder, null);

        assertTrue(outcome.verdict().accepted(), outcome.verdict().reason());
        assertEquals(List.of("persist " + 8L * ReadMostlyApp.LENGTH, "iteration 1"), events.subList(0, 2));
        assertEquals(1, events.stream().filter(e -> e.startsWith("persist")).count(),
                "no plan: nothing else is persisted " + events);
    }
}
