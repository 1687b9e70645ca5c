package dev.lazarus.coordinator.it;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.lazarus.testing.LazarusProcess;

import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Receive hooks see exactly the written ranges on both real backends (see {@link HookProbeApp}). */
class ReceiveHookIT {

    @ParameterizedTest(name = "{0} on {1} ranks")
    @CsvSource({"openmpi,1", "openmpi,2", "openmpi,4", "mpj,1", "mpj,2", "mpj,4"})
    void hooksSeeExactlyTheWrittenRanges(String backend, int ranks) throws Exception {
        Path testClasses = Path.of(HookProbeApp.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        LazarusProcess.Result result = LazarusProcess.run(Duration.ofMinutes(2), "run", "--np",
                Integer.toString(ranks), "--backend", backend, "--classpath", testClasses.toString(),
                "--timeout", "100", HookProbeApp.class.getName());
        assertEquals(0, result.exitStatus(), result.output());
        assertEquals(ranks, result.count("receive hooks OK"), result.output());
        assertEquals(ranks, result.count("backend " + backend), result.output());
    }
}
