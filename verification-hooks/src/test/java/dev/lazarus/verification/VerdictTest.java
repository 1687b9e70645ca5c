package dev.lazarus.verification;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VerdictTest {

    @Test
    void andRejectsIfEitherRejectsAndPutsTheRejectionFirst() {
        Verdict combined = Verdict.accept("a ok").and(Verdict.reject("b bad"));
        assertFalse(combined.accepted());
        assertEquals("b bad; a ok", combined.reason());
        assertTrue(Verdict.accept("a").and(Verdict.accept("b")).accepted());
        assertFalse(Verdict.reject("a").and(Verdict.accept("b")).accepted());
    }

    @Test
    void reasonIsRequired() {
        assertThrows(NullPointerException.class, () -> new Verdict(true, null));
    }
}
