package dev.lazarus.coordinator.launch;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What to launch.
 *
 * @param ranks          number of ranks, at least 1
 * @param backend        the MPI implementation
 * @param hostsFile      an Open MPI host file, or {@code null} for this node only
 * @param rshAgent       the command Open MPI starts remote daemons with (e.g. an {@code ip netns exec} wrapper), or
 *                       {@code null} for Open MPI's default
 * @param network        the CIDR Open MPI's out-of-band and TCP traffic between hosts is confined to, or {@code null}
 * @param extraClasspath entries added to the ranks' class path ahead of the bundled applications
 * @param jvmOptions     extra options for every rank's JVM
 * @param application    the application's name or class
 * @param arguments      the application's arguments
 * @param timeout        kill the job after this long, or {@code null} for no limit
 * @param statusRoot     where each launch's status directory (exit statuses, heartbeats, the directive) is made:
 *                       a directory every host of the job sees, or {@code null} for this host's temporary directory
 */
public record LaunchRequest(int ranks, Backend backend, Path hostsFile, String rshAgent, String network,
                            List<Path> extraClasspath,
                            List<String> jvmOptions, String application, List<String> arguments, Duration timeout,
                            Path statusRoot) {

    public LaunchRequest {
        extraClasspath = List.copyOf(extraClasspath);
        jvmOptions = List.copyOf(jvmOptions);
        arguments = List.copyOf(arguments);
    }

    /** A request whose status directories are made in this host's temporary directory. */
    public LaunchRequest(int ranks, Backend backend, Path hostsFile, String rshAgent, String network,
                         List<Path> extraClasspath, List<String> jvmOptions, String application,
                         List<String> arguments, Duration timeout) {
        this(ranks, backend, hostsFile, rshAgent, network, extraClasspath, jvmOptions, application, arguments, timeout,
                null);
    }

    /** @return this request on the hosts of {@code hosts} instead */
    public LaunchRequest onHosts(Path hosts) {
        return new LaunchRequest(ranks, backend, hosts, rshAgent, network, extraClasspath, jvmOptions, application,
                arguments, timeout, statusRoot);
    }
}
