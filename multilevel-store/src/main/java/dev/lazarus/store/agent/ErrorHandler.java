package dev.lazarus.store.agent;

/** Told of every exception an agent's work throws; the agent's runner keeps going. */
@FunctionalInterface
public interface ErrorHandler {
    /** Reports {@code error}, on the agent's thread. Must not throw. */
    void onError(Throwable error);
}
