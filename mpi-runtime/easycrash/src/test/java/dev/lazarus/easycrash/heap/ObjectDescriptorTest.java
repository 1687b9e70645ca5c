package dev.lazarus.easycrash.heap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.lazarus.easycrash.ObjectRole;
import dev.lazarus.mpi.ElementType;

import org.junit.jupiter.api.Test;

class ObjectDescriptorTest {

    /**
     * The heap spells roles with EasyCrash's names, so heaps written before and after read alike; it records only
     * whether an object is kept across a crash, so a read-only object (in a heap only in a campaign's trace run) is
     * written as re-initialized.
     */
    @Test
    void theDirectorySpellsEveryRoleByItsName() {
        for (ObjectRole role : ObjectRole.values()) {
            ObjectDescriptor descriptor = new ObjectDescriptor("u", ElementType.DOUBLE, 4096, 10,
                    role == ObjectRole.CANDIDATE);
            String word = role == ObjectRole.CANDIDATE ? "CANDIDATE" : "REINITIALIZED";
            assertEquals("DOUBLE 4096 10 " + word, descriptor.encode(), role.name());
            assertEquals(descriptor, ObjectDescriptor.decode("u", descriptor.encode()));
        }
    }

    @Test
    void anUnknownRoleIsAMalformedEntry() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ObjectDescriptor.decode("u", "DOUBLE 4096 10 candidate"));
        assertEquals("object u: malformed directory entry 'DOUBLE 4096 10 candidate': role candidate must be"
                + " CANDIDATE or REINITIALIZED", e.getMessage());
    }
}
