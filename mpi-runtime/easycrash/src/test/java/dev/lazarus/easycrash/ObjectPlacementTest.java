package dev.lazarus.easycrash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.easycrash.trace.AccessTracer;
import dev.lazarus.mpi.local.SingleRankComm;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where {@link EasyCrash} puts an application's objects: candidates and re-initialized objects in the persistent heap,
 * read-only objects in plain Java arrays, except while a campaign traces (then every object is in the heap, for the
 * cache model), and everything in plain arrays with EasyCrash off. Names are unique across both kinds, and
 * {@link EasyCrash#objects()} lists every object in attach order.
 */
class ObjectPlacementTest {
    @TempDir
    Path nvm;

    private EasyCrash start(AccessTracer tracer) throws Exception {
        Properties properties = new Properties();
        properties.setProperty(EasyCrashSettings.NVM_DIR, nvm.toString());
        properties.setProperty(EasyCrashSettings.JOB_ID, "job");
        properties.setProperty(EasyCrashSettings.HEAP_SIZE, "8m");
        return EasyCrash.start(new SingleRankComm(), "app", "app", List.of("r0"), 3 * 4096,
                new EasyCrashSettings(properties, Map.of()), tracer, null);
    }

    @Test
    void readOnlyAndTemporaryObjectsArePlainArraysAndTheOthersAreInTheHeap() throws Exception {
        try (EasyCrash easyCrash = start(null)) {
            DoubleArray x = easyCrash.doubles("x", 100);
            DoubleArray a = easyCrash.doubles("a", 100, ObjectRole.READ_ONLY);
            IntArray colidx = easyCrash.ints("colidx", 100, ObjectRole.READ_ONLY);
            LongArray counts = easyCrash.longs("counts", 10, ObjectRole.READ_ONLY);
            IntArray keys = easyCrash.ints("keys", 100, ObjectRole.CANDIDATE);
            DoubleArray residual = easyCrash.doubles("residual", 100, ObjectRole.REINITIALIZED);
            DoubleArray buffer = easyCrash.doubles("buffer", 100, ObjectRole.TEMPORARY);
            LongArray seeds = easyCrash.longs("seeds", 10, ObjectRole.TEMPORARY);
            assertTrue(x.persistent(), "candidate x");
            assertTrue(keys.persistent(), "candidate keys");
            assertTrue(residual.persistent(), "re-initialized residual");
            for (DataObject plain : List.of(a, colidx, counts, buffer, seeds)) {
                assertFalse(plain.persistent(), plain.name() + " is " + plain.role());
                assertEquals(-1, plain.heapOffset(), plain.name());
            }
            assertEquals(List.of("x", "a", "colidx", "counts", "keys", "residual", "buffer", "seeds"),
                    List.copyOf(easyCrash.objects().keySet()));
            a.set(7, 2.5);
            x.copyFrom(a.toArray());
            assertEquals(2.5, x.get(7), "the two kinds work together");
        }
    }

    @Test
    void aTracedRunKeepsEveryObjectInTheHeap() throws Exception {
        try (EasyCrash easyCrash = start(AccessTracer.NONE)) {
            DoubleArray a = easyCrash.doubles("a", 100, ObjectRole.READ_ONLY);
            IntArray colidx = easyCrash.ints("colidx", 100, ObjectRole.READ_ONLY);
            DoubleArray buffer = easyCrash.doubles("buffer", 100, ObjectRole.TEMPORARY);
            assertTrue(a.persistent(), "the cache model sees a");
            assertTrue(colidx.persistent(), "the cache model sees colidx");
            assertTrue(buffer.persistent(), "the cache model sees buffer");
        }
    }

    @Test
    void withEasyCrashOffEveryObjectIsPlain() {
        try (EasyCrash easyCrash = EasyCrash.plain(new SingleRankComm(), "app", List.of("r0"), null)) {
            assertFalse(easyCrash.doubles("x", 10).persistent());
            assertFalse(easyCrash.ints("a", 10, ObjectRole.REINITIALIZED).persistent());
            assertFalse(easyCrash.ints("b", 10, ObjectRole.READ_ONLY).persistent());
            assertFalse(easyCrash.longs("c", 10, ObjectRole.TEMPORARY).persistent());
        }
    }

    @Test
    void aNameIsAttachedOnceWhicheverKindHoldsIt() throws Exception {
        try (EasyCrash easyCrash = start(null)) {
            easyCrash.doubles("a", 10, ObjectRole.READ_ONLY);
            easyCrash.doubles("x", 10);
            IllegalArgumentException plainTwice = assertThrows(IllegalArgumentException.class,
                    () -> easyCrash.ints("a", 10, ObjectRole.READ_ONLY));
            assertEquals("object a is already attached", plainTwice.getMessage());
            IllegalArgumentException asCandidate = assertThrows(IllegalArgumentException.class,
                    () -> easyCrash.doubles("a", 10));
            assertEquals("object a is already attached", asCandidate.getMessage());
            IllegalArgumentException heapTwice = assertThrows(IllegalArgumentException.class,
                    () -> easyCrash.doubles("x", 10, ObjectRole.READ_ONLY));
            assertEquals("object x is already attached", heapTwice.getMessage());
        }
    }
}
