package dev.lazarus.coordinator.job;

import java.util.List;

/**
 * What job the coordinator runs, as its state records it.
 *
 * @param job         the job id
 * @param application the application's name
 * @param arguments   its arguments
 * @param ranks       the rank count
 * @param nodes       the nodes (the host file's, or this host)
 */
public record JobDescription(String job, String application, List<String> arguments, int ranks, List<String> nodes) {

    public JobDescription {
        arguments = List.copyOf(arguments);
        nodes = List.copyOf(nodes);
    }
}
