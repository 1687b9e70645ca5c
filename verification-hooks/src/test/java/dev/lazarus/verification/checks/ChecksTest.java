package dev.lazarus.verification.checks;

import dev.lazarus.verification.Verdict;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChecksTest {

    @Test
    void referenceValuesUseRelativeError() {
        ReferenceValues zeta = ReferenceValues.of("zeta", 8.5971775078648, 1e-10);
        assertTrue(zeta.verify(new double[] {8.5971775078648 * (1 + 5e-11)}).accepted());
        Verdict off = zeta.verify(new double[] {8.5971775078648 * (1 + 2e-10)});
        assertFalse(off.accepted());
        assertTrue(off.reason().startsWith("zeta=8.597177509584"), off.reason());
        assertTrue(off.reason().endsWith("> 1.0e-10"), off.reason());
    }

    @Test
    void referenceValuesRejectNanInfinityAndWrongCounts() {
        ReferenceValues check = new ReferenceValues(new String[] {"re", "im"}, new double[] {1, -2}, 1e-12);
        assertFalse(check.verify(new double[] {Double.NaN, -2}).accepted());
        assertFalse(check.verify(new double[] {1, Double.NEGATIVE_INFINITY}).accepted());
        assertEquals("expected 2 values, got 1", check.verify(new double[] {1}).reason());
        assertTrue(check.verify(new double[] {1, -2}).accepted());
    }

    @Test
    void zeroReferenceIsComparedAbsolutely() {
        assertEquals(1e-13, ReferenceValues.relativeError(1e-13, 0.0));
        assertTrue(ReferenceValues.of("x", 0.0, 1e-12).verify(new double[] {1e-13}).accepted());
    }

    @Test
    void badConfigurationIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> ReferenceValues.of("x", 1, 0));
        assertThrows(IllegalArgumentException.class,
                () -> new ReferenceValues(new String[] {"a"}, new double[] {1, 2}, 1e-8));
        assertThrows(IllegalArgumentException.class, () -> new ResidualThreshold(Double.NaN));
    }

    @Test
    void residualThresholdAcceptsFiniteResidualsUpToTheThreshold() {
        ResidualThreshold check = new ResidualThreshold(1e-6);
        assertTrue(check.verify(1e-6).accepted());
        assertFalse(check.verify(2e-6).accepted());
        assertFalse(check.verify(Double.NaN).accepted());
        assertFalse(check.verify(null).accepted());
    }

    @Test
    void invariantNamesWhatItChecked() {
        Invariant<List<Integer>> sorted = new Invariant<>("keys sorted",
                l -> l.stream().sorted().toList().equals(l));
        assertEquals(Verdict.accept("keys sorted holds"), sorted.verify(List.of(1, 2, 3)));
        assertEquals(Verdict.reject("keys sorted violated"), sorted.verify(List.of(2, 1)));
    }
}
