package dev.lazarus.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JobIdTest {
    @Test
    void plainNamesWithDotsInsideAreJobIds() {
        for (String id : new String[] {"heat", "npb.CG", "a..b", ".hidden", "x-1_2", "a".repeat(64)}) {
            assertEquals(id, JobId.check(id));
            assertTrue(JobId.valid(id), id);
        }
    }

    /** {@code .} and {@code ..} name the level root itself and its parent: they escaped the roots once. */
    @Test
    void dotAndDotDotSeparatorsEmptyLongAndOtherCharactersAreRefused() {
        for (String id : new String[] {".", "..", "a/b", "../x", "a\\b", "", "a".repeat(65), "héat", "a b", null}) {
            assertFalse(JobId.valid(id), String.valueOf(id));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JobId.check(id));
            assertEquals("job id '" + id + "' must be 1 to 64 of [A-Za-z0-9_.-], not . or ..", e.getMessage());
        }
    }
}
