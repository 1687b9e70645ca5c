package dev.lazarus.coordinator.launch;

import java.util.List;
import java.util.Map;

/**
 * A validated launch: the command to run and the environment variables to add.
 *
 * @param request     what was asked for
 * @param command     the launcher command line ({@code mpirun ...} or {@code java -jar starter.jar ...})
 * @param environment variables set for the launcher, on top of the inherited environment
 */
public record LaunchPlan(LaunchRequest request, List<String> command, Map<String, String> environment) {

    public LaunchPlan {
        command = List.copyOf(command);
        environment = Map.copyOf(environment);
    }
}
