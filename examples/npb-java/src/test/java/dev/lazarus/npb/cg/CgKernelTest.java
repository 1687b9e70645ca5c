package dev.lazarus.npb.cg;

import dev.lazarus.easycrash.EasyCrashSettings;
import dev.lazarus.npb.testing.KernelRuns;
import dev.lazarus.npb.testing.TestNvm;
import dev.lazarus.mpi.testing.ThreadComm;
import dev.lazarus.npb.common.ProblemClass;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CgKernelTest {
    private static final CgParameters S = CgParameters.of(ProblemClass.S);

    @TempDir
    Path nvm;

    @ParameterizedTest(name = "{0} thread ranks")
    @ValueSource(ints = {1, 2, 3, 4})
    void classSVerifiesOnThreadRanks(int ranks) throws Exception {
        CgKernel[] kernels = new CgKernel[ranks];
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        java.util.List<Integer> statuses = ThreadComm.run(ranks, comm -> {
            CgKernel kernel = new CgKernel();
            kernel.output(new PrintStream(report, true, StandardCharsets.UTF_8));
            kernels[comm.rank()] = kernel;
            return KernelRuns.status(comm, kernel, TestNvm.settings(nvm, "cg" + ranks), "--class", "S", "--quiet");
        });
        assertEquals(java.util.Collections.nCopies(ranks, 0), statuses);
        for (CgKernel kernel : kernels) {
            assertEquals(S.zetaVerify(), kernel.zeta(), 1e-10 * S.zetaVerify());
        }
        String text = report.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("SUCCESSFUL") && text.contains(" CG Benchmark Completed."), text);
    }

    @Test
    void easyCrashOffRunsOnPlainArraysWithoutAHeap() throws Exception {
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        CgKernel[] kernel = new CgKernel[1];
        java.util.List<Integer> statuses = ThreadComm.run(1, comm -> {
            kernel[0] = new CgKernel();
            java.util.Properties properties = new java.util.Properties();
            properties.setProperty(EasyCrashSettings.NVM_DIR, nvm.toString());
            properties.setProperty(EasyCrashSettings.EASYCRASH, "off");
            kernel[0].output(new PrintStream(report, true, StandardCharsets.UTF_8));
            return KernelRuns.status(comm, kernel[0], new EasyCrashSettings(properties, java.util.Map.of()),
                    "--class", "S", "--quiet");
        });
        assertEquals(java.util.List.of(0), statuses);
        assertEquals(S.zetaVerify(), kernel[0].zeta(), 1e-10 * S.zetaVerify());
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(nvm)) {
            assertEquals(java.util.List.of(nvm), files.toList(), "EasyCrash off must create no heap file");
        }
    }

    @Test
    void progressLinesFollowNpbLayout() throws Exception {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        ThreadComm.run(1, comm -> {
            CgKernel kernel = new CgKernel();
            kernel.output(new PrintStream(buffer, true, StandardCharsets.UTF_8));
            return KernelRuns.status(comm, kernel, TestNvm.settings(nvm, "cg-progress"), "--class", "S");
        });
        String text = buffer.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("   iteration           ||r||                 zeta"), text);
        assertTrue(text.lines().anyMatch(l -> l.startsWith("       15       ") && l.endsWith("8.5971775078648")), text);
    }

    @Test
    void verificationRejectsAPerturbedZeta() {
        double reference = S.zetaVerify();
        assertTrue(CgKernel.verify(S, reference * (1 + 5e-11)).accepted());
        assertFalse(CgKernel.verify(S, reference * (1 + 2e-10)).accepted());
        assertFalse(CgKernel.verify(S, reference - 1e-8).accepted());
        assertFalse(CgKernel.verify(S, Double.NaN).accepted());
    }

    @Test
    void mopsUseNpbOperationCount() {
        // Class A: 2 * 15 * 14000 * (3 + 132 + 25 * 137 + 3) = 1.49646e9 operations.
        assertEquals(1496.46, CgParameters.of(ProblemClass.A).mops(1.0), 1e-9);
        assertEquals(0.0, S.mops(0.0));
    }

    @Test
    void classParametersMatchNpb34() {
        CgParameters b = CgParameters.of(ProblemClass.B);
        assertEquals(new CgParameters(75000, 13, 75, 60.0, 22.712745482631), b);
        assertEquals(new CgParameters(7000, 8, 15, 12.0, 10.362595087124), CgParameters.of(ProblemClass.W));
    }

    @Test
    void unknownArgumentIsRejected() {
        assertThrows(IllegalArgumentException.class,
                () -> ThreadComm.run(1, comm -> new CgKernel().run(comm, new String[] {"--bogus"})));
    }
}
