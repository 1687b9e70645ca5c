package dev.lazarus.store.agent;

/**
 * A unit of background work run in a loop by an {@link AgentRunner}: a drain, a heartbeat, a watchdog. Each call does
 * what is ready and returns at once.
 */
public interface Agent {

    /**
     * @return how much work was done; 0 lets the runner idle before the next call
     * @throws Exception reported to the runner's error handler; the runner keeps going
     */
    int doWork() throws Exception;

    /** @return the name of the agent's thread */
    String roleName();

    /** Called once on the agent's thread when the runner stops. */
    default void onClose() {
    }
}
