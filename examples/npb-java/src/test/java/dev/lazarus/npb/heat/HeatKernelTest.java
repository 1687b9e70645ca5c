package dev.lazarus.npb.heat;

import dev.lazarus.npb.testing.KernelRuns;
import dev.lazarus.npb.testing.TestNvm;
import dev.lazarus.mpi.testing.ThreadComm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeatKernelTest {

    @TempDir
    Path nvm;

    private int[] run(int ranks, String job, String... args) throws Exception {
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        List<Integer> statuses = ThreadComm.run(ranks, comm -> {
            HeatKernel kernel = new HeatKernel();
            kernel.output(new PrintStream(report, true, StandardCharsets.UTF_8));
            return KernelRuns.status(comm, kernel, TestNvm.settings(nvm, job), args);
        });
        String text = report.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains(" HEAT Benchmark Completed."), text);
        return statuses.stream().mapToInt(Integer::intValue).toArray();
    }

    @ParameterizedTest(name = "{0} thread ranks")
    @ValueSource(ints = {1, 2, 3})
    void classSConvergesToTheExactSolutionOnAnyDecomposition(int ranks) throws Exception {
        int[] statuses = run(ranks, "heat" + ranks, "--class", "S", "--quiet");
        assertEquals(Collections.nCopies(ranks, 0), java.util.Arrays.stream(statuses).boxed().toList());
    }

    @Test
    void tooManyRanksAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ThreadComm.run(65, comm -> new HeatKernel().run(comm, new String[] {"--class", "S"})));
        assertTrue(e.getMessage().contains("runs on 1 to 64 ranks (got 65)"), e.getMessage());
    }
}
