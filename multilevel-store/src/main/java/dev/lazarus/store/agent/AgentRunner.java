package dev.lazarus.store.agent;

import java.util.concurrent.locks.LockSupport;

/**
 * Runs an {@link Agent} on its own daemon thread until closed. After a call that did no work the runner idles as its
 * {@link IdleStrategy} says, so an idle agent costs no core; an exception from the agent goes to the
 * {@link ErrorHandler}, counts as no work, and the loop goes on.
 */
public final class AgentRunner implements AutoCloseable {
    private final Agent agent;
    private final IdleStrategy idleStrategy;
    private final ErrorHandler errorHandler;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean background;

    /**
     * @param agent        the work
     * @param idleStrategy how to idle after a call without work; used by the runner's thread only
     * @param errorHandler told of every exception {@link Agent#doWork()} throws
     */
    public AgentRunner(Agent agent, IdleStrategy idleStrategy, ErrorHandler errorHandler) {
        this.agent = agent;
        this.idleStrategy = idleStrategy;
        this.errorHandler = errorHandler;
        this.thread = Thread.ofPlatform().daemon().name(agent.roleName()).unstarted(this::run);
    }

    /** A runner that backs off ({@link BackoffIdleStrategy}) up to {@code maxIdleNanos} when idle. */
    public AgentRunner(Agent agent, long maxIdleNanos, ErrorHandler errorHandler) {
        this(agent, new BackoffIdleStrategy(maxIdleNanos), errorHandler);
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
        while (running) {
            int work;
            try {
                work = agent.doWork();
            } catch (Throwable e) {
                errorHandler.onError(e);
                work = 0;
            }
            idleStrategy.idle(work);
        }
        try {
            agent.onClose();
        } catch (RuntimeException e) {
            errorHandler.onError(e);
        }
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
