package dev.lazarus.store.agent;

import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Runs an {@link Agent} on its own daemon thread until closed. When a call does no work the runner backs off: it
 * spins a little, then parks for growing periods up to {@code maxIdleNanos}, so an idle agent costs no core.
 */
public final class AgentRunner implements AutoCloseable {
    private static final int SPINS = 10;
    private static final long MIN_PARK_NANOS = 1_000;

    private final Agent agent;
    private final long maxIdleNanos;
    private final Consumer<Throwable> errorHandler;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean background;

    /**
     * @param agent        the work
     * @param maxIdleNanos longest park when idle
     * @param errorHandler told of every exception {@link Agent#doWork()} throws
     */
    public AgentRunner(Agent agent, long maxIdleNanos, Consumer<Throwable> errorHandler) {
        this.agent = agent;
        this.maxIdleNanos = maxIdleNanos;
        this.errorHandler = errorHandler;
        this.thread = Thread.ofPlatform().daemon().name(agent.roleName()).unstarted(this::run);
    }

    /**
     * Runs the agent at background priority ({@link BackgroundPriority}); call before {@link #start}.
     *
     * @return this
     */
    public AgentRunner background() {
        this.background = true;
        return this;
    }

    /** Starts the agent's thread. */
    public AgentRunner start() {
        thread.start();
        return this;
    }

    /** Wakes the agent if it is parked: call after handing it work. */
    public void wake() {
        LockSupport.unpark(thread);
    }

    private void run() {
        if (background) {
            BackgroundPriority.lowerCurrentThread(); // best effort: a refused call leaves normal priority
        }
        int idle = 0;
        while (running) {
            int work;
            try {
                work = agent.doWork();
            } catch (Throwable e) {
                errorHandler.accept(e);
                work = 0;
            }
            idle = work > 0 ? 0 : idle + 1;
            if (idle > SPINS) {
                long park = Math.min(maxIdleNanos, MIN_PARK_NANOS << Math.min(20, idle - SPINS));
                LockSupport.parkNanos(this, park);
            } else if (idle > 0) {
                Thread.onSpinWait();
            }
        }
        agent.onClose();
    }

    /** Stops the loop after the current call and waits for the thread to end. */
    @Override
    public void close() {
        running = false;
        wake();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
