package dev.lazarus.store.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AgentRunnerTest {

    /** An agent that counts its calls, throws on the ones listed, and counts down a latch on every call. */
    private static final class Counting implements Agent {
        final String name;
        final AtomicInteger calls = new AtomicInteger();
        final List<Integer> throwOn;
        final CountDownLatch latch;
        final List<String> closed;

        Counting(String name, List<Integer> throwOn, CountDownLatch latch, List<String> closed) {
            this.name = name;
            this.throwOn = throwOn;
            this.latch = latch;
            this.closed = closed;
        }

        @Override
        public int doWork() {
            int call = calls.incrementAndGet();
            latch.countDown();
            if (throwOn.contains(call)) {
                throw new IllegalStateException(name + " call " + call);
            }
            return 1;
        }

        @Override
        public String roleName() {
            return name;
        }

        @Override
        public void onClose() {
            closed.add(name);
        }
    }

    @Test
    void anErrorGoesToTheHandlerAndTheLoopGoesOn() throws Exception {
        List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
        List<String> closed = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch fiveCalls = new CountDownLatch(5);
        Counting agent = new Counting("a", List.of(2), fiveCalls, closed);
        try (AgentRunner runner = new AgentRunner(agent, new BackoffIdleStrategy(1_000_000), errors::add).start()) {
            assertTrue(fiveCalls.await(10, TimeUnit.SECONDS));
        }
        assertEquals(1, errors.size());
        assertEquals("a call 2", errors.getFirst().getMessage());
        assertEquals(List.of("a"), closed, "onClose runs once, on the runner's thread, when it stops");
    }

    @Test
    void aCompositeRunsEveryAgentEachRoundEvenAfterOneThrows() throws Exception {
        List<String> closed = new ArrayList<>();
        CountDownLatch unused = new CountDownLatch(0);
        Counting first = new Counting("first", List.of(1), unused, closed);
        Counting second = new Counting("second", List.of(1), unused, closed);
        Counting third = new Counting("third", List.of(), unused, closed);
        CompositeAgent composite = new CompositeAgent(List.of(first, second, third));
        assertEquals("first+second+third", composite.roleName());

        IllegalStateException round1 = assertThrows(IllegalStateException.class, composite::doWork);
        assertEquals("first call 1", round1.getMessage());
        assertEquals(1, round1.getSuppressed().length);
        assertEquals("second call 1", round1.getSuppressed()[0].getMessage());
        assertEquals(1, third.calls.get(), "the agent after the ones that threw still ran");
        assertEquals(3, composite.doWork(), "three agents did one unit each");

        composite.onClose();
        assertEquals(List.of("first", "second", "third"), closed);
        assertThrows(IllegalArgumentException.class, () -> new CompositeAgent(List.of()));
    }

    @Test
    void backoffSpinsThenParksLongerUpToItsBoundAndWorkResetsIt() {
        BackoffIdleStrategy idle = new BackoffIdleStrategy(2, 1_000, 5_000);
        long[] parks = new long[6];
        for (int i = 0; i < parks.length; i++) {
            parks[i] = idle.nextParkNanos();
            idle.idle(0);
        }
        assertArrayEquals(new long[] {0, 0, 2_000, 4_000, 5_000, 5_000}, parks);
        idle.idle(3);
        assertEquals(0, idle.nextParkNanos(), "work starts the back-off again");
        idle.idle(0);
        idle.idle(0);
        idle.reset();
        assertEquals(0, idle.nextParkNanos());

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new BackoffIdleStrategy(1, 10, 5));
        assertEquals("back-off spins=1 minParkNanos=10 maxParkNanos=5: need spins >= 0 and 1 <= minPark <= maxPark",
                e.getMessage());
    }

    @Test
    void theRunnersThreadIsNamedAfterItsAgent() throws Exception {
        CountDownLatch called = new CountDownLatch(1);
        String[] threadName = new String[1];
        Agent agent = new Agent() {
            @Override
            public int doWork() {
                threadName[0] = Thread.currentThread().getName();
                called.countDown();
                return 0;
            }

            @Override
            public String roleName() {
                return "lazarus-test-agent";
            }
        };
        try (AgentRunner runner = new AgentRunner(agent, 1_000_000, e -> { }).start()) {
            assertTrue(called.await(10, TimeUnit.SECONDS));
        }
        assertEquals("lazarus-test-agent", threadName[0]);
    }
}
