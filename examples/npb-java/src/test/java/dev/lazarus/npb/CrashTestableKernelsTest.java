package dev.lazarus.npb;

import dev.lazarus.easycrash.Recomputable;
import dev.lazarus.easycrash.RecomputableApplication;
import dev.lazarus.mpi.MpiApplication;
import dev.lazarus.mpi.launch.ApplicationCatalog;
import dev.lazarus.mpi.local.SingleRankComm;
import dev.lazarus.npb.testing.Applications;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every application this module registers can be crash-tested: {@code ./lazarus campaign} needs it prepared without
 * running, on one rank, with its regions and heap size known. Kernels that verify per iteration must not be run past
 * their last iteration (a restart test would index past their per-iteration reference values).
 */
class CrashTestableKernelsTest {

    @Test
    void everyRegisteredApplicationPreparesForACampaignAtClassS() {
        assertEquals(java.util.List.of("npb.CG", "npb.EP", "npb.FT", "npb.IS", "npb.MG", "solver.HEAT"),
                Applications.names());
        for (String name : Applications.names()) {
            MpiApplication app = new ApplicationCatalog(getClass().getClassLoader()).resolve(name);
            RecomputableApplication crashTestable = assertInstanceOf(RecomputableApplication.class, app, app.name());
            Recomputable prepared = crashTestable.prepare(new SingleRankComm(), new String[] {"--class", "S",
                    "--quiet"});
            assertEquals(app.name(), prepared.application());
            assertFalse(prepared.regions().isEmpty(), app.name());
            assertTrue(prepared.heapBytes() > 0, app.name());
            assertTrue(prepared.iterations() >= 1, app.name());
            assertTrue(prepared.maxIterations() >= prepared.iterations(), app.name());
            assertTrue(prepared.signature().contains("S"), app.name() + ": " + prepared.signature());
        }
    }

    @Test
    void kernelsVerifiedPerIterationAreNeverRunPastTheirLastIteration() {
        for (String name : new String[] {"npb.FT", "npb.IS"}) {
            Recomputable prepared = Applications.instance(name)
                    .prepare(new SingleRankComm(), new String[] {"--class", "S", "--quiet"});
            assertEquals(prepared.iterations(), prepared.maxIterations(), name);
        }
        Recomputable cg = Applications.instance("npb.CG")
                .prepare(new SingleRankComm(), new String[] {"--class", "S", "--quiet"});
        assertEquals(2 * cg.iterations(), cg.maxIterations());
    }
}
