package dev.lazarus.daemon.l2.wire;

import dev.lazarus.store.agent.Agent;
import dev.lazarus.store.agent.AgentRunner;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The read and write timeout of blocking {@link Link}s, as an agent: a link busy in a blocking call without progress
 * for longer than the timeout is closed, which makes the call fail with an exception, and one line is logged.
 * Blocking socket channels ignore {@code SO_TIMEOUT}, hence this.
 */
public final class IdleWatchdog implements Agent, AutoCloseable {
    /** The runner's longest park between checks: the timeout is honoured to within this. */
    private static final long CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final long timeoutNanos;
    private final Consumer<String> log;
    private final Set<Link> links = ConcurrentHashMap.newKeySet();
    private final AgentRunner runner;

    private IdleWatchdog(long timeoutNanos, Consumer<String> log) {
        this.timeoutNanos = timeoutNanos;
        this.log = log;
        this.runner = new AgentRunner(this, CHECK_NANOS, e -> log.accept("l2: watchdog: " + e));
    }

    /**
     * @param timeoutMillis how long a blocking call may go without progress
     * @param log           told one line per link closed
     * @return a running watchdog
     */
    public static IdleWatchdog start(long timeoutMillis, Consumer<String> log) {
        IdleWatchdog watchdog = new IdleWatchdog(TimeUnit.MILLISECONDS.toNanos(timeoutMillis), log);
        watchdog.runner.start();
        return watchdog;
    }

    /** Watches {@code link} until {@link #forget}. */
    public void watch(Link link) {
        links.add(link);
    }

    /** Stops watching {@code link}. */
    public void forget(Link link) {
        links.remove(link);
    }

    @Override
    public int doWork() {
        long now = System.nanoTime();
        int closed = 0;
        for (Link link : links) {
            long idle = now - link.lastProgressNanos();
            if (link.busy() && idle > timeoutNanos) {
                links.remove(link);
                link.close();
                log.accept("l2: timed out: peer=" + link.peer() + " idleMillis="
                        + TimeUnit.NANOSECONDS.toMillis(idle));
                closed++;
            }
        }
        return closed;
    }

    @Override
    public String roleName() {
        return "l2-watchdog";
    }

    @Override
    public void close() {
        runner.close();
    }
}
