package dev.lazarus.coordinator.launch;

import java.util.List;
import java.util.Map;

/**
 * A validated launch: the command to run and the environment variables to add.
 *
 * @param request     what was asked for
 * @param command     the launcher command line ({@code mpirun ...} or {@code java -jar starter.jar ...})
 * @param environment variables set for the launcher, on top of the inherited environment
 * @param ranksBeat   whether the application's ranks write heartbeats (it runs through EasyCrash's
 *                    {@code RecomputingRun}): then a rank without one long after the launch began is hung
 */
public record LaunchPlan(LaunchRequest request, List<String> command, Map<String, String> environment,
                         boolean ranksBeat) {

    public LaunchPlan {
        command = List.copyOf(command);
        environment = Map.copyOf(environment);
    }

    /** A plan whose ranks are not known to write heartbeats. */
    public LaunchPlan(LaunchRequest request, List<String> command, Map<String, String> environment) {
        this(request, command, environment, false);
    }

    /** @return this plan, saying whether its ranks write heartbeats */
    public LaunchPlan withRanksBeat(boolean beat) {
        return new LaunchPlan(request, command, environment, beat);
    }
}
