package dev.lazarus.store.agent;

/**
 * What a loop does between calls that found nothing to do, in the manner of Agrona's idle strategies: an agent's
 * runner idles after a call that did no work, and a thread waiting for an agent idles between looks at its state.
 * One instance per thread.
 */
public interface IdleStrategy {

    /**
     * Idles, or not, after a call that did {@code workCount} units of work: work resets the strategy, none moves it
     * one step further along its back-off.
     */
    void idle(int workCount);

    /** Starts the back-off again, e.g. before a new wait. */
    void reset();
}
