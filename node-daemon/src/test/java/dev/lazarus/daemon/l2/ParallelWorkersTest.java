package dev.lazarus.daemon.l2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

class ParallelWorkersTest {

    @Test
    void everyWorkerRunsOnItsOwnThread() throws IOException {
        Set<Integer> ran = ConcurrentHashMap.newKeySet();
        Set<String> threads = ConcurrentHashMap.newKeySet();
        ParallelWorkers.run("test", 3, worker -> {
            ran.add(worker);
            threads.add(Thread.currentThread().getName());
        }, () -> { });
        assertEquals(Set.of(0, 1, 2), ran);
        assertEquals(Set.of("test-0", "test-1", "test-2"), threads);
    }

    /** A worker blocked until aborted stands for one blocked on a socket that the abort closes. */
    @Test
    void theFirstFailureAbortsTheOthersAndIsThrown() {
        CountDownLatch aborted = new CountDownLatch(1);
        AtomicInteger aborts = new AtomicInteger();
        IOException failure = new IOException("peer closed the connection");
        IOException thrown = assertThrows(IOException.class, () -> ParallelWorkers.run("test", 2, worker -> {
            if (worker == 1) {
                throw failure;
            }
            try {
                if (!aborted.await(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("never aborted");
                }
            } catch (InterruptedException e) {
                throw new IOException(e);
            }
            throw new IOException("connection closed by the abort");
        }, () -> {
            aborts.incrementAndGet();
            aborted.countDown();
        }));
        assertSame(failure, thrown);
        assertEquals(1, aborts.get());
        assertEquals(1, thrown.getSuppressed().length);
        assertTrue(thrown.getSuppressed()[0].getMessage().contains("by the abort"));
    }

    @Test
    void uncheckedFailuresPassThroughAndOneWorkerRunsHere() {
        String caller = Thread.currentThread().getName();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ParallelWorkers.run("test", 1,
                worker -> {
                    throw new IllegalStateException(Thread.currentThread().getName());
                }, () -> { }));
        assertEquals(caller, e.getMessage());
    }
}
