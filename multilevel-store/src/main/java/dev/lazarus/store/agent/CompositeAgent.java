package dev.lazarus.store.agent;

import java.util.List;

/**
 * Several agents on one thread: each call runs every agent once, in order, and reports the work they did together,
 * so one runner (and one idle strategy) serves them all. An agent that throws does not keep the ones after it from
 * running: the first exception is rethrown after the round, later ones are added to it as suppressed.
 */
public final class CompositeAgent implements Agent {
    private final List<Agent> agents;
    private final String roleName;

    /** @throws IllegalArgumentException if no agent is given */
    public CompositeAgent(List<? extends Agent> agents) {
        if (agents.isEmpty()) {
            throw new IllegalArgumentException("a composite agent needs at least one agent");
        }
        this.agents = List.copyOf(agents);
        this.roleName = String.join("+", this.agents.stream().map(Agent::roleName).toList());
    }

    @Override
    public int doWork() throws Exception {
        int work = 0;
        Exception first = null;
        for (Agent agent : agents) {
            try {
                work += agent.doWork();
            } catch (Exception e) {
                first = keepFirst(first, e);
            }
        }
        if (first != null) {
            throw first;
        }
        return work;
    }

    @Override
    public String roleName() {
        return roleName;
    }

    /** Closes every agent, in order, each even if one before it throws. */
    @Override
    public void onClose() {
        RuntimeException first = null;
        for (Agent agent : agents) {
            try {
                agent.onClose();
            } catch (RuntimeException e) {
                first = keepFirst(first, e);
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** @return {@code first}, with {@code next} added to it as suppressed, or {@code next} if it is the first */
    private static <T extends Exception> T keepFirst(T first, T next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }
}
