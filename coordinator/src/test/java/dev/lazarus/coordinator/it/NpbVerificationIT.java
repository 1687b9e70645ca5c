package dev.lazarus.coordinator.it;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.lazarus.testing.LazarusProcess;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every NPB kernel, and the SOR heat solver, verifies classes S and W on 1, 2 and 4 ranks on both backends, launched
 * through {@code ./lazarus run} exactly as a user would.
 */
class NpbVerificationIT {
    private static final String SUCCESS = "Verification    =               SUCCESSFUL";

    static Stream<Arguments> runs() {
        List<Arguments> runs = new ArrayList<>();
        for (String backend : List.of("openmpi", "mpj")) {
            for (String kernel : List.of("npb.CG", "npb.MG", "npb.FT", "npb.IS", "npb.EP", "solver.HEAT")) {
                for (String problemClass : List.of("S", "W")) {
                    for (int ranks : List.of(1, 2, 4)) {
                        runs.add(Arguments.of(backend, kernel, problemClass, ranks));
                    }
                }
            }
        }
        return runs.stream();
    }

    @ParameterizedTest(name = "{0} {1} class {2} on {3} ranks")
    @MethodSource("runs")
    void kernelVerifies(String backend, String application, String problemClass, int ranks) throws Exception {
        String kernel = application.substring(application.indexOf('.') + 1);
        LazarusProcess.Result result = LazarusProcess.run(Duration.ofMinutes(5), "run", "--np",
                Integer.toString(ranks), "--backend", backend, "--timeout", "280", application,
                "--class", problemClass, "--quiet");
        assertEquals(0, result.exitStatus(), result.output());
        assertTrue(result.output().contains(SUCCESS), result.output());
        assertTrue(result.output().contains(" " + kernel + " Benchmark Completed."), result.output());
        assertTrue(result.output().lines().anyMatch(l -> l.matches(" Class\\s+=\\s+" + problemClass)),
                result.output());
        assertTrue(result.output().lines().anyMatch(l -> l.matches(" Total processes\\s+=\\s+" + ranks)),
                result.output());
    }
}
