package dev.lazarus.coordinator.cli;

import dev.lazarus.coordinator.launch.HostsFile;
import dev.lazarus.coordinator.state.JobCluster;
import dev.lazarus.coordinator.state.StateFiles;
import dev.lazarus.store.settings.SettingSource;
import dev.lazarus.store.settings.Settings;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Where a job's recovery state is kept and how the coordinator's member of the job's Hazelcast cluster is set up:
 * the state directory ({@code --state-dir}, else {@code LAZARUS_COORDINATOR_STATE_DIR}, else
 * {@code ~/.lazarus/state}; {@code off} keeps none), and the member bound to this host's address in {@code --net}
 * (else the loopback) on {@code LAZARUS_COORDINATOR_PORT} (5710) or the next free port.
 *
 * @param job     the job id
 * @param files   the job's state directory, or null ({@code off})
 * @param cluster the coordinator's member
 * @param nodes   the job's nodes (the host file's, or this host)
 */
record JobKeeping(String job, StateFiles files, JobCluster cluster, List<String> nodes) {

    static JobKeeping of(Map<String, String> environment, String stateOption, String job, String network,
                         Path hosts) {
        SettingSource source = new SettingSource(new Properties(), environment);
        String directory = stateOption != null ? stateOption
                : source.text(Settings.COORDINATOR_STATE_DIR).orElse(null);
        StateFiles files = "off".equals(directory) ? null : new StateFiles(root(directory, environment), job);
        int port = source.integer(Settings.COORDINATOR_PORT, 5710, 1, 65535 - JobCluster.PORTS);
        // The coordinator's member is the first: the others (node daemons) join it.
        JobCluster cluster = JobCluster.onThisHost(job, JobCluster.newToken(), network, port, List.of());
        return new JobKeeping(job, files, cluster, hosts == null ? List.of(thisHost()) : HostsFile.hosts(hosts));
    }

    private static Path root(String directory, Map<String, String> environment) {
        if (directory == null || directory.isBlank()) {
            String home = environment.getOrDefault("HOME", System.getProperty("user.home"));
            return Path.of(home, ".lazarus", "state");
        }
        return Path.of(directory).toAbsolutePath();
    }

    private static String thisHost() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
