package dev.lazarus.mpi.launch;

import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.MpiApplication;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ApplicationCatalogTest {

    /** An application found by class name (it is not registered as a service). */
    public static final class Probe implements MpiApplication {
        @Override
        public int run(Comm comm, String[] args) {
            return 0;
        }
    }

    private final ApplicationCatalog catalog = new ApplicationCatalog(getClass().getClassLoader());

    @Test
    void resolvesByClassName() {
        assertInstanceOf(Probe.class, catalog.resolve(Probe.class.getName()));
    }

    @Test
    void unknownNamesAndNonApplicationsAreRefusedInOneLine() {
        assertEquals("unknown application 'no.such.App' (known: )",
                assertThrows(IllegalArgumentException.class, () -> catalog.resolve("no.such.App")).getMessage());
        assertEquals("class java.lang.String does not implement dev.lazarus.mpi.MpiApplication",
                assertThrows(IllegalArgumentException.class, () -> catalog.resolve("java.lang.String")).getMessage());
        assertEquals("no application given",
                assertThrows(IllegalArgumentException.class, () -> catalog.resolve(" ")).getMessage());
    }
}
